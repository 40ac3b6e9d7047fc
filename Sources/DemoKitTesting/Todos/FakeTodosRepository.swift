import DemoKit
import Strata

public typealias FakeTodosRepository = FakeCollection<Todo>

extension FakeCollection: TodosRepository where Item == Todo {
  public func todo(id: Int) async throws -> Todo { try await item("todo", id: id) }

  public func setCompleted(id: Int, _ completed: Bool, idempotencyKey: String) async throws
    -> Todo
  {
    try await script.call("setCompleted", "\(id), \(completed), key \(idempotencyKey)")
    let todo = try await self.todo(id: id)
    return Todo(id: id, todo: todo.todo, completed: completed, userId: todo.userId)
  }
}

extension Todo: FakeItem {}

// Sample data in the real service's shape, nobody's real data.

extension Todo {
  public static let preview = Todo(
    id: 1, todo: "Do something nice for someone", completed: false, userId: 1)

  /// Five todos, every third done.
  public static let previews: [Todo] = (1...5).map { id in
    Todo(id: id, todo: "Todo \(id)", completed: id % 3 == 0, userId: id)
  }
}
