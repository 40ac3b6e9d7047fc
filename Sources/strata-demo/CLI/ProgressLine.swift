import DemoKit
import Foundation
import Strata

/// A line on stderr rewritten in place (`sending 3 of 10: …`, `1.2 MB of 4.8 MB`) once the work
/// has run for a second — on a terminal only; piped or `--json` output stays plain.
final class ProgressLine: Sendable {
  private struct State {
    var text: String?
    var drawn: String?
    var shown = false
    var finished = false
  }

  private let state = Locked(State())

  init(shown: Bool) {
    guard shown else {
      state.withLock { $0.finished = true }
      return
    }
    Task.detached { [state] in
      try? await Task.sleep(for: .seconds(1))
      while true {
        let line = state.withLock { state -> String?? in
          guard !state.finished else { return nil }
          state.shown = true
          let text = state.text ?? ""
          defer { state.drawn = text }
          return state.drawn == text ? .some(nil) : text
        }
        guard let line else { return }
        if let line { Terminal.writeAll(2, Array("\r\u{1B}[K\(line)".utf8)) }
        try? await Task.sleep(for: .milliseconds(200))
      }
    }
  }

  /// A call's progress handler (`progress:`), each step of the answer's bytes shown as
  /// `1.2 MB of 4.8 MB (25%)`; the line is drawn by its own task, at most five times a second.
  func follow() -> @Sendable (TransferProgress) -> Void {
    { [self] step in
      if step.direction == .receiving { update(Self.describe(step)) }
    }
  }

  /// `1.2 MB of 4.8 MB (25%)`, or `1.2 MB` when the whole is not known.
  static func describe(_ step: TransferProgress) -> String {
    let format = ByteCountFormatter()
    format.countStyle = .file
    let done = format.string(fromByteCount: step.completed)
    guard let expected = step.total, let fraction = step.fraction else { return done }
    return Localized.current(
      "download.progress",
      [
        "done": done, "expected": format.string(fromByteCount: expected),
        "percent": String(Int(fraction * 100)),
      ])
  }

  /// The line to show next (drawn at most five times a second).
  func update(_ text: String) {
    state.withLock { $0.text = text }
  }

  /// Stops updating and clears the line if it was shown.
  func finish() {
    let shown = state.withLock { state -> Bool in
      state.finished = true
      return state.shown
    }
    if shown { Terminal.writeAll(2, Array("\r\u{1B}[K".utf8)) }
  }
}
