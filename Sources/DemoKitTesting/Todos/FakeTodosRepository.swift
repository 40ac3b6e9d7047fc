import DemoKit
import Foundation
import Strata
import StrataConcurrency

/// Todos from memory; every call recorded by ``script``.
public final class FakeTodosRepository: TodosRepository {
  /// Records calls, scripts failures, holds answers.
  public let script: FakeScript
  private let todos: [Todo]

  /// A repository over `todos`.
  public init(todos: [Todo] = Todo.previews, script: FakeScript = FakeScript()) {
    self.todos = todos
    self.script = script
  }

  /// A slice of the items.
  public func list(limit: Int, skip: Int) async throws -> Page<Todo> {
    try await script.call("list", "\(limit), \(skip)")
    return slice(todos, limit: limit, skip: skip)
  }

  /// The todo with `id` (404 if none).
  public func todo(id: Int) async throws -> Todo {
    try await script.call("todo", "\(id)")
    guard let todo = todos.first(where: { $0.id == id }) else {
      throw NetworkError.server(status: 404, serverMessage: "Todo with id '\(id)' not found")
    }
    return todo
  }

  /// The todo, done or not.
  public func setCompleted(id: Int, _ completed: Bool) async throws -> Todo {
    try await script.call("setCompleted", "\(id), \(completed)")
    let todo = try await self.todo(id: id)
    return Todo(id: id, todo: todo.todo, completed: completed, userId: todo.userId)
  }
}

// Sample data in the real service's shape, nobody's real data.

extension Todo {
  public static let preview = Todo(
    id: 1, todo: "Do something nice for someone", completed: false, userId: 1)

  /// Five todos, every third done.
  public static let previews: [Todo] = (1...5).map { id in
    Todo(id: id, todo: "Todo \(id)", completed: id % 3 == 0, userId: id)
  }
}
