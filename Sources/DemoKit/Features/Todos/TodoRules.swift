import Foundation

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
public struct TodoEdit: Codable, Sendable, Equatable {
  public var todo: String?
  public var completed: Bool?

  public init(todo: String? = nil, completed: Bool? = nil) {
    (self.todo, self.completed) = (todo, completed)
  }

  /// This edit, then `later` on top of it: one edit saying both.
  public func then(_ later: TodoEdit) -> TodoEdit {
    TodoEdit(todo: later.todo ?? todo, completed: later.completed ?? completed)
  }

  /// `todo` with this edit made.
  public func applied(to todo: Todo) -> Todo {
    Todo(
      id: todo.id, todo: self.todo ?? todo.todo, completed: completed ?? todo.completed,
      userId: todo.userId)
  }
}

/// What the API accepts as a todo, checked before anything is sent or kept: its text trimmed,
/// not blank, at most ``longestText`` characters; an author id that can exist.
public enum TodoRules {
  public static let longestText = 500

  /// `draft` trimmed, or the first rule it breaks.
  public static func validated(_ draft: TodoDraft) throws(ValidationError) -> TodoDraft {
    guard draft.userId >= 1 else {
      throw ValidationError(field: "userId", Localized.current("rule.todo.owner"))
    }
    return TodoDraft(todo: try text(draft.todo), completed: draft.completed, userId: draft.userId)
  }

  /// `edit` with its text trimmed, or the rule it breaks; an edit must change something.
  public static func validated(_ edit: TodoEdit) throws(ValidationError) -> TodoEdit {
    guard edit.todo != nil || edit.completed != nil else {
      throw ValidationError(field: "todo", Localized.current("rule.todo.edit"))
    }
    guard let text = edit.todo else { return edit }
    return TodoEdit(todo: try Self.text(text), completed: edit.completed)
  }

  private static func text(_ text: String) throws(ValidationError) -> String {
    let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if text.isEmpty { throw ValidationError(field: "todo", Localized.current("rule.todo.text")) }
    if text.count > longestText {
      throw ValidationError(
        field: "todo", Localized.current("rule.todo.long", ["limit": String(longestText)]))
    }
    return text
  }
}
