import DemoKit
import Strata

/// Walks a ``NewPostFlow`` on a terminal: one question per step, the flow's own validation
/// messages, the review, and the confirmation.
@MainActor
struct NewPostDialog {
  /// Asks a question, returns the answer (nil at the end of input).
  let ask: (String) -> String?
  /// Says something to the person (stderr: stdout is for the result).
  let tell: (String) -> Void

  /// Asks for each step until the post is created or the person says no.
  /// - Returns: Whether the post was created (false: declined or input ended).
  /// - Throws: The creation's failure.
  func run(_ flow: NewPostFlow) async throws -> Bool {
    let text = Localized.current
    let steps = NewPostFlow.Step.allCases
    while !flow.wizard.isFinished {
      let step = flow.wizard.current
      let number = (steps.firstIndex(of: step) ?? 0) + 1
      switch step {
      case .title where flow.fields.title.isEmpty || flow.wizard.validationMessage != nil:
        tell("[\(number)/\(steps.count)] \(text("dialog.title"))")
        guard let answer = ask(text("dialog.title") + ": ") else { return false }
        flow.fields.title = answer
      case .body where flow.fields.body.isEmpty || flow.wizard.validationMessage != nil:
        tell("[\(number)/\(steps.count)] \(text("dialog.body"))")
        guard let answer = ask(text("dialog.body") + ": ") else { return false }
        flow.fields.body = answer
      case .review:
        tell("[\(number)/\(steps.count)] \(text("dialog.review"))")
        for (label, value) in flow.fields.summary {
          tell("  \(label): \(UntrustedText.sanitize(value))")
        }
      default:
        break
      }
      guard await flow.wizard.next() else {
        if let message = flow.wizard.validationMessage {
          tell(message)
          continue
        }
        throw Self.failure(of: flow)
      }
      if let dialog = flow.wizard.dialog {
        let answer = ask("\(dialog.title) \(dialog.message) \(text("dialog.yesNo")) ")?.lowercased()
        // "y"/"yes" in every language: a script that answers in English keeps working.
        let yes = ["y", "yes"] + text("dialog.yes").split(separator: ",").map(String.init)
        guard let answer, yes.contains(answer) else {
          flow.wizard.cancel()
          return false
        }
        guard await flow.wizard.confirm() else { throw Self.failure(of: flow) }
      }
    }
    return true
  }

  /// Why the flow did not create the post: the create's error, else the flow's sentence.
  static func failure(of flow: NewPostFlow) -> any Error {
    flow.wizard.state.failure?.error ?? CommandFailure(Localized.current("post.notCreated"))
  }
}
