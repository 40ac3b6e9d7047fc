import DemoKit
import Foundation
import Strata
import StrataConcurrency

/// Posts from memory; every call recorded by ``script``; created posts are numbered after the
/// last one, as DummyJSON does.
public final class FakePostsRepository: PostsRepository {
  /// Records calls, scripts failures, holds answers.
  public let script: FakeScript
  private let posts: [Post]
  private let answered = Lock([String: Post]())

  /// A repository over `posts`.
  public init(posts: [Post] = Post.previews, script: FakeScript = FakeScript()) {
    self.posts = posts
    self.script = script
  }

  /// A slice of the items.
  public func list(limit: Int, skip: Int) async throws -> Page<Post> {
    try await script.call("list", "\(limit), \(skip)")
    return slice(posts, limit: limit, skip: skip)
  }

  /// The post with `id` (404 if none).
  public func post(id: Int) async throws -> Post {
    try await script.call("post", "\(id)")
    guard let post = posts.first(where: { $0.id == id }) else {
      throw NetworkError.server(status: 404, serverMessage: "Post with id '\(id)' not found")
    }
    return post
  }

  /// A new post, numbered after the last.
  public func create(title: String, body: String, userId: Int) async throws -> Post {
    try await script.call("create", "\(title), \(body), \(userId)")
    return Post(id: (posts.map(\.id).max() ?? 0) + 1, title: title, body: body, userId: userId)
  }

  /// A new post; a key seen before gets its first answer, as a server honouring keys does.
  public func create(_ draft: PostDraft, idempotencyKey: String) async throws -> Post {
    try await script.call(
      "create", "\(draft.title), \(draft.body), \(draft.userId), key \(idempotencyKey)")
    let new = Post(
      id: (posts.map(\.id).max() ?? 0) + 1, title: draft.title, body: draft.body,
      userId: draft.userId)
    return answered.withLock { answers in
      if let first = answers[idempotencyKey] { return first }
      answers[idempotencyKey] = new
      return new
    }
  }

  /// The post with a new title.
  public func update(id: Int, title: String) async throws -> Post {
    try await script.call("update", "\(id), \(title)")
    let post = try await self.post(id: id)
    return Post(id: id, title: title, body: post.body, userId: post.userId)
  }

  /// Nothing: the post is "deleted".
  public func delete(id: Int) async throws {
    try await script.call("delete", "\(id)")
  }
}

// Sample data in the real service's shape, nobody's real data.

extension Post {
  public static let preview = Post(
    id: 1, title: "His mother had always taught him", body: "not to ever think of himself…",
    userId: 1, tags: ["history", "american"], reactions: .init(likes: 192, dislikes: 25),
    views: 305)

  /// Five posts by the preview users.
  public static let previews: [Post] = (1...5).map { id in
    Post(
      id: id, title: "Post \(id)", body: "The text of post \(id).", userId: id, tags: [],
      reactions: .init(likes: id * 10, dislikes: id), views: id * 100)
  }
}
