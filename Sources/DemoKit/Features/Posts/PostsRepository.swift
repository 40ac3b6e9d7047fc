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
  /// Creates a post carrying `idempotencyKey` — online and offline alike: retried on a lost
  /// answer or a 5xx, and never created twice, because the server answers a repeat with its
  /// first answer.
  func create(_ draft: PostDraft, idempotencyKey: String) async throws -> Post
  /// Changes a post's text, sent with `idempotencyKey` (retried under it, as a create is).
  func update(id: Int, _ edit: PostEdit, idempotencyKey: String) async throws -> Post
  /// Deletes a post, sent with `idempotencyKey`.
  func delete(id: Int, idempotencyKey: String) async throws
}

// MARK: - Live implementation

public final class APIPostsRepository: PostsRepository {
  private let network: any Networking

  public init(network: any Networking) { self.network = network }

  /// A page of posts.
  public func list(limit: Int, skip: Int) async throws -> Page<Post> {
    try await network.send(Page.request(limit, skip)).value
  }

  public func post(id: Int) async throws -> Post {
    try await network.send(PostRequests.get(id: id)).value
  }

  /// Creates a post with its idempotency key (the service then retries it like a GET).
  public func create(_ draft: PostDraft, idempotencyKey: String) async throws -> Post {
    try await network.send(PostRequests.create(draft, idempotencyKey: idempotencyKey)).value
  }

  /// Changes a post's text.
  public func update(id: Int, _ edit: PostEdit, idempotencyKey: String) async throws -> Post {
    try await network.send(PostRequests.update(id: id, edit, idempotencyKey: idempotencyKey))
      .value
  }

  public func delete(id: Int, idempotencyKey: String) async throws {
    _ = try await network.send(PostRequests.delete(id: id, idempotencyKey: idempotencyKey))
  }
}

// MARK: - Requests

private enum PostRequests {
  static func get(id: Int) -> Request<Post> { Request(path: "posts/\(id)") }

  /// `POST /posts/add`, keyed (safe to retry): the author must exist (400 / 404 otherwise).
  static func create(_ draft: PostDraft, idempotencyKey: String) -> Request<Post> {
    Request(
      path: "posts/add", method: .post, body: .json(draft), idempotencyKey: idempotencyKey)
  }

  static func update(id: Int, _ edit: PostEdit, idempotencyKey: String) -> Request<Post> {
    Request(path: "posts/\(id)", method: .put, body: .json(edit), idempotencyKey: idempotencyKey)
  }

  static func delete(id: Int, idempotencyKey: String) -> Request<EmptyResponse> {
    Request(path: "posts/\(id)", method: .delete, idempotencyKey: idempotencyKey)
  }
}
