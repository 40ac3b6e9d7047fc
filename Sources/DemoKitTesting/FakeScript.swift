import DemoKit
import Strata
import StrataTesting

/// What every fake repository shares: the calls it received, failures scripted per call
/// name, and gates that hold the answers of a call name until the test opens them — so a test
/// can look at a view model while the "server" has not answered yet.
/// ```swift
/// let script = FakeScript()
/// let gate = script.hold("create")          // creates wait; loads answer at once
/// script.fail("create", with: .server(status: 500, serverMessage: "down"))
/// ```
public final class FakeScript: Sendable {
  private struct State {
    var calls: [String] = []
    var failures: [String: any Error] = [:]
    var gates: [String: Gate] = [:]
  }

  private let state = Locked(State())

  /// A script that answers every call at once.
  public init() {}

  /// Holds every later call named `name` at the returned gate until the test opens it.
  @discardableResult
  public func hold(_ name: String) -> Gate {
    let gate = Gate()
    state.withLock { $0.gates[name] = gate }
    return gate
  }

  /// Every call so far, as `name(arguments)`, in order.
  public var calls: [String] { state.withLock { $0.calls } }

  /// Makes every later call named `name` (`create`, `setCompleted`, …) throw `error`.
  public func fail(_ name: String, with error: any Error) {
    state.withLock { $0.failures[name] = error }
  }

  /// Lets calls named `name` succeed again.
  public func succeed(_ name: String) {
    _ = state.withLock { $0.failures.removeValue(forKey: name) }
  }

  /// Records a call, waits at the gate, then throws its scripted failure if any.
  public func call(_ name: String, _ arguments: String = "") async throws {
    let (failure, gate) = state.withLock { state -> ((any Error)?, Gate?) in
      state.calls.append("\(name)(\(arguments))")
      return (state.failures[name], state.gates[name])
    }
    if let gate { await gate.pass() }
    if let failure { throw failure }
  }
}
