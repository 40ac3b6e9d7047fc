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

/// Posts: list, read, create, update, delete.
public protocol PostsRepository: Sendable {
  /// A page of posts.
  func list(limit: Int, skip: Int) async throws -> Page<Post>
  func post(id: Int) async throws -> Post
  /// Creates a post carrying `idempotencyKey` — online and offline alike: retried on a lost
  /// answer or a 5xx, and never created twice, because the server answers a repeat with its
  /// first answer.
  func create(_ draft: PostDraft, idempotencyKey: String) async throws -> Post
  /// Changes a post's title.
  func update(id: Int, title: String) async throws -> Post
  func delete(id: Int) async throws
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

  /// Changes a post's title.
  public func update(id: Int, title: String) async throws -> Post {
    try await network.send(PostRequests.update(id: id, title: title)).value
  }

  public func delete(id: Int) async throws {
    _ = try await network.send(PostRequests.delete(id: id))
  }
}

// MARK: - Requests

private enum PostRequests {
  private struct NewPost: Encodable, Sendable {
    let title: String
    let body: String
    let userId: Int
  }
  private struct TitleChange: Encodable, Sendable { let title: String }

  static func get(id: Int) -> Request<Post> { Request(path: "posts/\(id)") }

  /// `POST /posts/add`, keyed (safe to retry): the author must exist (400 / 404 otherwise).
  static func create(_ draft: PostDraft, idempotencyKey: String) -> Request<Post> {
    Request(
      path: "posts/add", method: .post, body: draft, idempotencyKey: idempotencyKey)
  }

  /// Keyed, as every write here: a 503 or a lost answer is retried under one key.
  static func update(id: Int, title: String) -> Request<Post> {
    Request(
      path: "posts/\(id)", method: .put, body: TitleChange(title: title),
      idempotencyKey: UUID().uuidString)
  }

  static func delete(id: Int) -> Request<EmptyResponse> {
    Request(path: "posts/\(id)", method: .delete, idempotencyKey: UUID().uuidString)
  }
}
