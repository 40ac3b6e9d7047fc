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
public struct PostEdit: Codable, Sendable, Equatable {
  public var title: String?
  public var body: String?

  public init(title: String? = nil, body: String? = nil) { (self.title, self.body) = (title, body) }

  /// This edit, then `later` on top of it: one edit saying both.
  public func then(_ later: PostEdit) -> PostEdit {
    PostEdit(title: later.title ?? title, body: later.body ?? body)
  }

  /// `post` with this edit made.
  public func applied(to post: Post) -> Post {
    Post(
      id: post.id, title: title ?? post.title, body: body ?? post.body, userId: post.userId,
      tags: post.tags, reactions: post.reactions, views: post.views)
  }
}

/// Posts: list, read, create, update, delete.
public protocol PostsRepository: Sendable {
  /// A page of posts.
  func list(limit: Int, skip: Int) async throws -> Page<Post>
  func post(id: Int) async throws -> Post
  /// The post as the server has it now (asked, never a kept answer) and its version (the
  /// answer's `ETag`, nil when the server sends none): what a change made offline is checked
  /// against just before it is written.
  func latest(id: Int) async throws -> (post: Post, version: String?)
  /// Creates a post carrying `idempotencyKey` — online and offline alike: retried on a lost
  /// answer or a 5xx, and never created twice where the server answers a repeated key with
  /// its first answer (the sandbox does; DummyJSON ignores the key).
  func create(_ draft: PostDraft, idempotencyKey: String) async throws -> Post
  /// Changes a post's text, sent with `idempotencyKey` (retried under it, as a create is) and,
  /// given a version, `If-Match` on it: a server whose post changed since answers 412
  /// (`NetworkError` with status 412) and changes nothing.
  /// - Returns: The post as changed, and its new version when the server sent one.
  func update(id: Int, _ edit: PostEdit, idempotencyKey: String, ifMatch version: String?)
    async throws -> (post: Post, version: String?)
  /// Deletes a post, sent with `idempotencyKey` and, given a version, `If-Match` on it.
  func delete(id: Int, idempotencyKey: String, ifMatch version: String?) async throws
}

extension PostsRepository {
  /// Changes a post whatever its version (last write wins).
  public func update(id: Int, _ edit: PostEdit, idempotencyKey: String) async throws -> Post {
    try await update(id: id, edit, idempotencyKey: idempotencyKey, ifMatch: nil).post
  }

  /// Deletes a post whatever its version.
  public func delete(id: Int, idempotencyKey: String) async throws {
    try await delete(id: id, idempotencyKey: idempotencyKey, ifMatch: nil)
  }
}

// MARK: - Live implementation

public final class APIPostsRepository: PostsRepository {
  private let api: CollectionAPI<Post>

  public init(network: any Networking) { api = CollectionAPI(network: network) }

  public func list(limit: Int, skip: Int) async throws -> Page<Post> {
    try await api.page(limit: limit, skip: skip)
  }

  public func post(id: Int) async throws -> Post { try await api.item(id: id) }

  /// `POST /posts/add`: the author must exist (400 / 404 otherwise).
  public func create(_ draft: PostDraft, idempotencyKey: String) async throws -> Post {
    try await api.add(draft, idempotencyKey: idempotencyKey)
  }

  public func latest(id: Int) async throws -> (post: Post, version: String?) {
    try await api.latest(id: id)
  }

  public func update(id: Int, _ edit: PostEdit, idempotencyKey: String, ifMatch version: String?)
    async throws -> (post: Post, version: String?)
  {
    try await api.update(id: id, edit, idempotencyKey: idempotencyKey, ifMatch: version)
  }

  public func delete(id: Int, idempotencyKey: String, ifMatch version: String?) async throws {
    try await api.delete(id: id, idempotencyKey: idempotencyKey, ifMatch: version)
  }
}
