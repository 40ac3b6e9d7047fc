/// Posts: list, read, create, update, delete.
public protocol PostsRepository: Sendable {
  /// A page of posts.
  /// - Throws: `NetworkError`.
  func list(limit: Int, skip: Int) async throws -> Page<Post>
  /// One post.
  /// - Throws: `NetworkError`.
  func post(id: Int) async throws -> Post
  /// Creates a post (a POST: never retried, so it is never created twice).
  /// - Throws: `NetworkError`.
  func create(title: String, body: String, userId: Int) async throws -> Post
  /// Changes a post's title.
  /// - Throws: `NetworkError`.
  func update(id: Int, title: String) async throws -> Post
  /// Deletes a post.
  /// - Throws: `NetworkError`.
  func delete(id: Int) async throws
}
