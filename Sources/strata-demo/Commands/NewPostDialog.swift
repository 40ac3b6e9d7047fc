import DemoKit
import Strata

/// Walks a ``NewPostFlow`` on a terminal (or without one): one question per step, the
/// flow's own validation messages, the review, and the confirmation.
@MainActor
struct NewPostDialog {
  /// Asks a question, returns the answer (nil at the end of input).
  let ask: (String) -> String?
  /// Says something to the person (stderr: stdout is for the result).
  let tell: (String) -> Void

  /// Runs the flow with the fields as given: every step checked, the dialog confirmed.
  /// - Throws: ``UsageError`` for a field the flow refuses; the creation's failure.
  static func runWithoutQuestions(_ flow: NewPostFlow, command: Command?) async throws {
    // The post's rules first: a refused post is exit 65 with its field, nothing sent.
    if let invalid = flow.validationError() { throw invalid }
    // Every step's next(); the last one asks for confirmation, which is given.
    for _ in flow.flow.steps {
      let moved = await flow.flow.next()
      if let message = flow.flow.validationMessage { throw UsageError(message, command) }
      guard moved else { throw failure(of: flow) }
    }
    if flow.flow.dialog != nil, !(await flow.flow.confirm()) { throw failure(of: flow) }
  }

  /// Asks for each step until the post is created or the person says no.
  /// - Returns: Whether the post was created (false: declined or input ended).
  /// - Throws: The creation's failure.
  func run(_ flow: NewPostFlow) async throws -> Bool {
    let steps = NewPostFlow.Step.allCases
    while !flow.flow.isFinished {
      let step = flow.flow.current
      let number = (steps.firstIndex(of: step) ?? 0) + 1
      switch step {
      case .title where flow.title.isEmpty || flow.flow.validationMessage != nil:
        tell("[\(number)/\(steps.count)] title")
        guard let answer = ask("title: ") else { return false }
        flow.title = answer
      case .body where flow.body.isEmpty || flow.flow.validationMessage != nil:
        tell("[\(number)/\(steps.count)] body")
        guard let answer = ask("body: ") else { return false }
        flow.body = answer
      case .review:
        tell("[\(number)/\(steps.count)] review")
        for (label, value) in flow.summary { tell("  \(label): \(UntrustedText.sanitize(value))") }
      default:
        break
      }
      guard await flow.flow.next() else {
        if let message = flow.flow.validationMessage {
          tell(message)
          continue
        }
        throw Self.failure(of: flow)
      }
      if let dialog = flow.flow.dialog {
        let answer = ask("\(dialog.title) \(dialog.message) [y/N] ")?.lowercased()
        guard answer == "y" || answer == "yes" else {
          flow.flow.cancel()
          return false
        }
        guard await flow.flow.confirm() else { throw Self.failure(of: flow) }
      }
    }
    return true
  }

  /// Why the flow did not create the post: the list's failure, else the flow's sentence.
  static func failure(of flow: NewPostFlow) -> any Error {
    flow.posts.state.failure?.error
      ?? CommandFailure(flow.flow.state.message ?? "the post was not created")
  }
}
