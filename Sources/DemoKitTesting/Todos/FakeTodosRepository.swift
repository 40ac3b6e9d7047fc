import DemoKit
import Strata

public typealias FakeTodosRepository = FakeCollection<Todo>

extension Todo: FakeCollectionItem {
  public static func script(_ draft: TodoDraft) -> [String] {
    [draft.todo, String(draft.completed), String(draft.userId)]
  }
  public static func script(_ edit: TodoEdit) -> [String] {
    [edit.todo, edit.completed.map(String.init)].compactMap { $0 }
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
