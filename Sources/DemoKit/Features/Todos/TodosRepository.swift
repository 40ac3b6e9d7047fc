/// Todos: list and mark done or not.
public protocol TodosRepository: Sendable {
  /// A page of todos.
  /// - Throws: `NetworkError`.
  func list(limit: Int, skip: Int) async throws -> Page<Todo>
  /// One todo.
  /// - Throws: `NetworkError` (`.server(404)` when absent).
  func todo(id: Int) async throws -> Todo
  /// Sets a todo's completed flag.
  /// - Throws: `NetworkError`.
  func setCompleted(id: Int, _ completed: Bool) async throws -> Todo
}
