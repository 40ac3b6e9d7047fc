import StrataConcurrency

/// Holds async work at a point until the test opens it, so a race (a refresh in flight, a slow
/// response overtaken by a newer one) is set up deterministically, without sleeping.
/// ```swift
/// let gate = Gate()
/// let slow = Task {
///   await gate.pass()  // held here
///   return "old"
/// }
/// try await gate.waitUntilEntered()  // it is in flight now
/// // … change the world meanwhile, then let it finish:
/// gate.open()
/// #expect(await slow.value == "old")
/// ```
public final class Gate: Sendable {
  private struct State {
    var entered = 0
    var open = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Lock(State())

  /// Creates a closed gate.
  public init() {}

  /// How many callers have reached ``pass()`` so far.
  public var entered: Int { state.withLock { $0.entered } }

  /// Waits here until the gate is open (returns at once if it already is).
  public func pass() async {
    await withCheckedContinuation { continuation in
      let proceed = state.withLock { state -> Bool in
        state.entered += 1
        if state.open { return true }
        state.waiters.append(continuation)
        return false
      }
      if proceed { continuation.resume() }
    }
  }

  /// Opens the gate: every waiting caller, and every later one, goes through.
  public func open() {
    let waiters = state.withLock { state in
      state.open = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Waits until `count` callers have reached ``pass()``. A hang guard, not a verdict on
  /// speed: after `limit` (five minutes by default — a busy machine runs a parallel suite
  /// several times slower) it throws ``TimedOut``, saying what it waited for, so a regression
  /// fails the test instead of hanging it.
  public func waitUntilEntered(_ count: Int = 1, limit: Duration = .seconds(300)) async throws {
    let deadline = ContinuousClock.now + limit
    // From 1 ms up to every 10 ms: many tests waiting at once must not keep the cooperative
    // pool busy with wake-ups on a loaded machine.
    var pause = Duration.milliseconds(1)
    while entered < count {
      guard ContinuousClock.now < deadline else {
        throw TimedOut(expected: count, arrived: entered, limit: limit)
      }
      try await Task.sleep(for: pause)
      pause = min(pause * 2, .milliseconds(10))
    }
  }

  /// The callers a test waited for did not all reach the gate in time.
  public struct TimedOut: Error, CustomStringConvertible {
    public let expected: Int
    public let arrived: Int
    public let limit: Duration
    public var description: String {
      "hang guard: \(arrived) of \(expected) caller(s) reached the gate within \(limit)"
    }
  }
}
