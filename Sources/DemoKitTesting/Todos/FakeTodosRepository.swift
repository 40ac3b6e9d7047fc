import DemoKit
import Strata

public typealias FakeTodosRepository = FakeCollection<Todo>

extension FakeCollection: TodosRepository where Item == Todo {
  public func todo(id: Int) async throws -> Todo { try await item("todo", id: id) }

  /// A key seen before gets its first answer, as a server honouring keys does.
  public func add(_ draft: TodoDraft, idempotencyKey: String) async throws -> Todo {
    try await script.call(
      "add", "\(draft.todo), \(draft.completed), \(draft.userId), key \(idempotencyKey)")
    return once(idempotencyKey) {
      Todo(
        id: (items.map(\.id).max() ?? 0) + 1, todo: draft.todo, completed: draft.completed,
        userId: draft.userId)
    }
  }

  /// The todo as given: a fake's todos never change, and carry no version.
  public func latest(id: Int) async throws -> (todo: Todo, version: String?) {
    try await script.call("latest", "\(id)")
    return (try stored(id), nil)
  }

  public func update(id: Int, _ edit: TodoEdit, idempotencyKey: String, ifMatch version: String?)
    async throws -> (todo: Todo, version: String?)
  {
    let fields =
      [edit.todo, edit.completed.map(String.init)].compactMap { $0 }
      + (version.map { ["if-match \($0)"] } ?? [])
    try await script.call(
      "update", "\(id), \(fields.joined(separator: ", ")), key \(idempotencyKey)")
    return (edit.applied(to: try stored(id)), nil)
  }

  public func delete(id: Int, idempotencyKey: String, ifMatch version: String?) async throws {
    try await script.call("delete", "\(id), key \(idempotencyKey)")
    _ = try stored(id)
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
