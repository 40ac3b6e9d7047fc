import Foundation

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
