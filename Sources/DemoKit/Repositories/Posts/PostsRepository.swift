import Strata

/// ``PostsRepo`` over DummyJSON.
public final class PostsRepository: PostsRepo {
  private let network: any Networking

  /// Creates the repository.
  /// - Parameter network: The networking layer.
  public init(network: any Networking) { self.network = network }

  /// A page of posts.
  /// - Parameters:
  ///   - limit: Page size.
  ///   - skip: Offset.
  /// - Returns: The page.
  /// - Throws: `NetworkError`.
  public func list(limit: Int, skip: Int) async throws -> Page<Post> {
    try await network.send(PostRequests.list(limit: limit, skip: skip))
  }

  /// One post.
  /// - Parameter id: The id.
  /// - Returns: The post.
  /// - Throws: `NetworkError`.
  public func post(id: Int) async throws -> Post {
    try await network.send(PostRequests.get(id: id))
  }

  /// Creates a post (never retried).
  /// - Parameters:
  ///   - title: Title.
  ///   - body: Text.
  ///   - userId: Author.
  /// - Returns: The created post.
  /// - Throws: `NetworkError`.
  public func create(title: String, body: String, userId: Int) async throws -> Post {
    try await network.send(PostRequests.create(title: title, body: body, userId: userId))
  }

  /// Changes a post's title.
  /// - Parameters:
  ///   - id: The id.
  ///   - title: The new title.
  /// - Returns: The updated post.
  /// - Throws: `NetworkError`.
  public func update(id: Int, title: String) async throws -> Post {
    try await network.send(PostRequests.update(id: id, title: title))
  }

  /// Deletes a post.
  /// - Parameter id: The id.
  /// - Throws: `NetworkError`.
  public func delete(id: Int) async throws {
    _ = try await network.send(PostRequests.delete(id: id))
  }
}
