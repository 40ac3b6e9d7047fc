import Strata
import StrataConcurrency

/// A ``MonotonicClock`` that never waits: each sleep is recorded and moves ``now()`` forward at once,
/// so a test of a 1 s + 2 s + 4 s backoff runs in microseconds and can assert the exact delays. Set
/// ``suspendsSleeps`` to make sleeps wait until cancelled or
/// ``resumeSleepers()`` (for cancellation tests).
public final class ManualClock: MonotonicClock {
  private struct State {
    var now: Duration = .zero
    var sleeps: [Duration] = []
    var suspended: [Int: CheckedContinuation<Void, any Error>] = [:]
    var nextID = 0
    var suspendsSleeps = false
  }

  private let state = Lock(State())

  /// Creates a clock at time zero.
  /// - Parameter suspendsSleeps: Whether sleeps wait (until cancelled or resumed).
  public init(suspendsSleeps: Bool = false) {
    state.withLock { $0.suspendsSleeps = suspendsSleeps }
  }

  /// The clock's current time.
  public func now() -> Duration { state.withLock { $0.now } }

  /// Every sleep requested so far, in order.
  public var sleeps: [Duration] { state.withLock { $0.sleeps } }

  /// How many sleepers are currently suspended.
  public var suspendedCount: Int { state.withLock { $0.suspended.count } }

  /// Moves time forward without a sleep.
  public func advance(by duration: Duration) { state.withLock { $0.now += duration } }

  /// Records the sleep and advances time; with ``suspendsSleeps`` waits until cancelled or resumed.
  /// - Throws: `CancellationError` if the task is (or becomes) cancelled.
  public func sleep(for duration: Duration) async throws {
    try Task.checkCancellation()
    let suspends = state.withLock { state -> Bool in
      state.sleeps.append(duration)
      if !state.suspendsSleeps { state.now += duration }
      return state.suspendsSleeps
    }
    guard suspends else {
      await Task.yield()
      try Task.checkCancellation()
      return
    }
    let id = state.withLock { state -> Int in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let cancelledAlready = state.withLock { state -> Bool in
          if Task.isCancelled { return true }
          state.suspended[id] = continuation
          return false
        }
        if cancelledAlready { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let continuation = state.withLock { $0.suspended.removeValue(forKey: id) }
      continuation?.resume(throwing: CancellationError())
    }
  }

  /// Wakes every suspended sleeper, advancing time by the longest of their sleeps.
  public func resumeSleepers() {
    let continuations = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
      defer { state.suspended.removeAll() }
      return Array(state.suspended.values)
    }
    for continuation in continuations { continuation.resume() }
  }
}
