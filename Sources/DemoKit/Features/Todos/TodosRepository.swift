import Foundation
import Strata

/// A todo not yet created: what `add` sends (and what an outbox keeps).
public struct TodoDraft: Codable, Sendable, Equatable {
  public var todo: String
  public var completed: Bool
  public var userId: Int

  public init(todo: String, completed: Bool = false, userId: Int) {
    (self.todo, self.completed, self.userId) = (todo, completed, userId)
  }
}

/// A change to a todo: the fields given are replaced (`PUT /todos/:id` sends only them).
public struct TodoEdit: ItemEdit {
  public var todo: String?
  public var completed: Bool?

  public init(todo: String? = nil, completed: Bool? = nil) {
    (self.todo, self.completed) = (todo, completed)
  }

  public func then(_ later: TodoEdit) -> TodoEdit {
    TodoEdit(todo: later.todo ?? todo, completed: later.completed ?? completed)
  }

  public func applied(to todo: Todo) -> Todo {
    Todo(
      id: todo.id, todo: self.todo ?? todo.todo, completed: completed ?? todo.completed,
      userId: todo.userId)
  }
}

/// Todos: list, read, add, change (text, done or not), delete (`/todos`).
public typealias TodosRepository = CollectionRepository<Todo>

/// Todos through the network.
public typealias APITodosRepository = APICollectionRepository<Todo>

extension Todo: CollectionItem {
  public typealias Draft = TodoDraft
  public typealias Edit = TodoEdit

  public static var itemName: String { "todo" }
  /// An addition is `todo.add`; `todo.setCompleted` is what a toggle was before edits existed
  /// (`{"id", "completed"}`), still sent from an outbox an earlier build kept.
  public static var changeKinds: ChangeKinds {
    ChangeKinds(
      create: "todo.add", edit: "todo.update", delete: "todo.delete",
      formerEdits: ["todo.setCompleted"])
  }

  /// Numbered 0 until the server numbers it.
  public init(_ draft: TodoDraft) { self.init(draft, id: 0) }

  public init(_ draft: TodoDraft, id: Int) {
    self.init(id: id, todo: draft.todo, completed: draft.completed, userId: draft.userId)
  }

  public var draft: TodoDraft { TodoDraft(todo: todo, completed: completed, userId: userId) }
}
