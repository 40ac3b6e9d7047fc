/// A monotonic reading and a cancellable sleep: what deadlines and waits are measured on. Backoff
/// sleeps and the deadline budget across retries go through it, so tests inject `ManualClock`
/// and never wait. (The in-flight guard of a single exchange uses real time: it bounds real I/O.)
public protocol MonotonicClock: Sendable {
  /// Monotonic time since an arbitrary origin.
  func now() -> Duration
  /// - Throws: `CancellationError` if the task is cancelled meanwhile.
  func sleep(for duration: Duration) async throws
}

/// The real clock (`ContinuousClock`).
public struct SystemMonotonicClock: MonotonicClock {
  private let origin = ContinuousClock.now

  public init() {}

  /// Time since this clock was created.
  public func now() -> Duration { ContinuousClock.now - origin }

  /// - Throws: `CancellationError` when cancelled.
  public func sleep(for duration: Duration) async throws {
    try await Task.sleep(for: duration)
  }
}
