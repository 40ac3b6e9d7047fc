import Foundation
import Strata

/// A post not yet created: what `create` sends (and what an outbox keeps).
public struct PostDraft: Codable, Sendable, Equatable {
  public var title: String
  public var body: String
  public var userId: Int

  public init(title: String, body: String, userId: Int) {
    (self.title, self.body, self.userId) = (title, body, userId)
  }
}

/// A change to a post's text: the fields given are replaced (`PUT /posts/:id` sends only them).
public struct PostEdit: ItemEdit {
  public var title: String?
  public var body: String?

  public init(title: String? = nil, body: String? = nil) { (self.title, self.body) = (title, body) }

  public func then(_ later: PostEdit) -> PostEdit {
    PostEdit(title: later.title ?? title, body: later.body ?? body)
  }

  public func applied(to post: Post) -> Post {
    Post(
      id: post.id, title: title ?? post.title, body: body ?? post.body, userId: post.userId,
      tags: post.tags, reactions: post.reactions, views: post.views)
  }
}

extension Post: CollectionItem {
  public typealias Draft = PostDraft
  public typealias Edit = PostEdit

  public static var itemName: String { "post" }

  /// Numbered 0 until the server numbers it.
  public init(_ draft: PostDraft) { self.init(draft, id: 0) }

  public init(_ draft: PostDraft, id: Int) {
    self.init(id: id, title: draft.title, body: draft.body, userId: draft.userId)
  }

  public var draft: PostDraft { PostDraft(title: title, body: body, userId: userId) }
}

/// Posts: list, read, create, update, delete (`/posts`).
public typealias PostsRepository = CollectionRepository<Post>

/// Posts through the network.
public typealias APIPostsRepository = APICollectionRepository<Post>
