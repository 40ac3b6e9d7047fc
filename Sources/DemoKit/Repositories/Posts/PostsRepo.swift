/// Posts: list, read, create, update, delete.
public protocol PostsRepo: Sendable {
  /// A page of posts.
  /// - Parameters:
  ///   - limit: Page size.
  ///   - skip: Offset.
  /// - Returns: The page.
  /// - Throws: `NetworkError`.
  func list(limit: Int, skip: Int) async throws -> Page<Post>
  /// One post.
  /// - Parameter id: The id.
  /// - Returns: The post.
  /// - Throws: `NetworkError`.
  func post(id: Int) async throws -> Post
  /// Creates a post (a POST: never retried, so it is never created twice).
  /// - Parameters:
  ///   - title: Title.
  ///   - body: Text.
  ///   - userId: Author.
  /// - Returns: The created post.
  /// - Throws: `NetworkError`.
  func create(title: String, body: String, userId: Int) async throws -> Post
  /// Changes a post's title.
  /// - Parameters:
  ///   - id: The id.
  ///   - title: The new title.
  /// - Returns: The updated post.
  /// - Throws: `NetworkError`.
  func update(id: Int, title: String) async throws -> Post
  /// Deletes a post.
  /// - Parameter id: The id.
  /// - Throws: `NetworkError`.
  func delete(id: Int) async throws
}
