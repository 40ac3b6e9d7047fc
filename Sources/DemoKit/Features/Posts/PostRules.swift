/// What the API accepts as a post, checked before anything is sent or kept: title and body
/// trimmed, not blank, within DummyJSON's lengths; an author id that can exist.
public enum PostRules {
  /// The longest title accepted.
  public static let longestTitle = 120
  /// The longest body accepted.
  public static let longestBody = 10_000

  /// `draft` trimmed, or the first rule it breaks (title, then body, then author).
  public static func validated(_ draft: PostDraft) throws(ValidationError) -> PostDraft {
    let title = draft.title.trimmingCharacters(in: .whitespacesAndNewlines)
    let body = draft.body.trimmingCharacters(in: .whitespacesAndNewlines)
    if let problem = titleProblem(title) { throw ValidationError(field: "title", problem) }
    if let problem = bodyProblem(body) { throw ValidationError(field: "body", problem) }
    guard draft.userId >= 1 else {
      throw ValidationError(field: "userId", Localized.current("rule.post.author"))
    }
    return PostDraft(title: title, body: body, userId: draft.userId)
  }

  /// `edit` trimmed, or the first rule it breaks; an edit must change something.
  public static func validated(_ edit: PostEdit) throws(ValidationError) -> PostEdit {
    let title = edit.title?.trimmingCharacters(in: .whitespacesAndNewlines)
    let body = edit.body?.trimmingCharacters(in: .whitespacesAndNewlines)
    if let problem = title.flatMap(titleProblem) { throw ValidationError(field: "title", problem) }
    if let problem = body.flatMap(bodyProblem) { throw ValidationError(field: "body", problem) }
    guard title != nil || body != nil else {
      throw ValidationError(field: "title", Localized.current("rule.post.edit"))
    }
    return PostEdit(title: title, body: body)
  }

  static func titleProblem(_ title: String) -> String? {
    if title.isEmpty { return Localized.current("rule.post.title") }
    if title.count > longestTitle {
      return Localized.current("rule.post.titleLong", ["limit": String(longestTitle)])
    }
    return nil
  }

  static func bodyProblem(_ body: String) -> String? {
    if body.isEmpty { return Localized.current("rule.post.body") }
    if body.count > longestBody {
      return Localized.current("rule.post.bodyLong", ["limit": String(longestBody)])
    }
    return nil
  }
}
