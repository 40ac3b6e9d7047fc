/// Todos: list and mark done or not.
public protocol TodosRepo: Sendable {
  /// A page of todos.
  /// - Parameters:
  ///   - limit: Page size.
  ///   - skip: Offset.
  /// - Returns: The page.
  /// - Throws: `NetworkError`.
  func list(limit: Int, skip: Int) async throws -> Page<Todo>
  /// One todo.
  /// - Parameter id: The id.
  /// - Returns: The todo.
  /// - Throws: `NetworkError` (`.server(404)` when absent).
  func todo(id: Int) async throws -> Todo
  /// Sets a todo's completed flag.
  /// - Parameters:
  ///   - id: The id.
  ///   - completed: Done or not.
  /// - Returns: The updated todo.
  /// - Throws: `NetworkError`.
  func setCompleted(id: Int, _ completed: Bool) async throws -> Todo
}
