import Strata

/// ``PostsRepository`` over DummyJSON.
public final class APIPostsRepository: PostsRepository {
  private let network: any Networking

  /// Creates the repository.
  public init(network: any Networking) { self.network = network }

  /// A page of posts.
  /// - Throws: `NetworkError`.
  public func list(limit: Int, skip: Int) async throws -> Page<Post> {
    try await network.send(PostRequests.list(limit: limit, skip: skip))
  }

  /// One post.
  /// - Throws: `NetworkError`.
  public func post(id: Int) async throws -> Post {
    try await network.send(PostRequests.get(id: id))
  }

  /// Creates a post (never retried).
  /// - Throws: `NetworkError`.
  public func create(title: String, body: String, userId: Int) async throws -> Post {
    try await network.send(PostRequests.create(title: title, body: body, userId: userId))
  }

  /// Changes a post's title.
  /// - Throws: `NetworkError`.
  public func update(id: Int, title: String) async throws -> Post {
    try await network.send(PostRequests.update(id: id, title: title))
  }

  /// Deletes a post.
  /// - Throws: `NetworkError`.
  public func delete(id: Int) async throws {
    _ = try await network.send(PostRequests.delete(id: id))
  }
}
