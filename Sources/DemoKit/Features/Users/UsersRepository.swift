/// Users: pages, search, one by id, and edits (which invalidate the cache).
public protocol UsersRepository: Sendable {
  /// A page of users.
  /// - Throws: `NetworkError`.
  func page(limit: Int, skip: Int) async throws -> Page<User>
  /// Users matching a query.
  /// - Parameters:
  ///   - query: Text to find in names, username or e-mail.
  ///   - limit: Page size.
  ///   - skip: Offset.
  /// - Throws: `NetworkError`.
  func search(_ query: String, limit: Int, skip: Int) async throws -> Page<User>
  /// One user.
  /// - Throws: `NetworkError` (`.server(404)` with the server's message when absent).
  func user(id: Int) async throws -> User
  /// Changes a user's name and forgets cached users.
  /// - Throws: `NetworkError`.
  func rename(id: Int, firstName: String) async throws -> User
}
