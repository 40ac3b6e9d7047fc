// snippet.hide
import Strata

/// A todo kept on the device (as in the adoption sample, shortened).
struct Todo: SyncedItem {
  struct Draft: Codable, Sendable, Equatable { var todo: String }
  struct Edit: ItemEdit {
    var completed: Bool?
    func then(_ later: Edit) -> Edit { Edit(completed: later.completed ?? completed) }
    func applied(to item: Todo) -> Todo {
      Todo(id: item.id, todo: item.todo, completed: completed ?? item.completed)
    }
  }
  var id: Int, todo: String, completed: Bool
  static var itemName: String { "todo" }
  init(id: Int, todo: String, completed: Bool) {
    (self.id, self.todo, self.completed) = (id, todo, completed)
  }
  init(_ draft: Draft) { self.init(id: 0, todo: draft.todo, completed: false) }
  var draft: Draft { Draft(todo: todo) }
}

func render(_ shown: [SyncedCollection<Todo>.Entry]) {}

func ask(_ todos: SyncedCollection<Todo>) async throws {
  // snippet.show
  let newest = ValueQuery<Todo>(
    where: { !$0.completed }, sortedBy: [.descending(\.id)], limit: 20)
  let page = try await todos.local(newest)  // the device's changes on top
  let open = try await todos.count(newest)  // offset and limit aside
  for await shown in await todos.updates(newest) {
    render(shown)  // again whenever the result changes, whoever changed the store
  }
  // snippet.hide
  _ = (page, open)
}
