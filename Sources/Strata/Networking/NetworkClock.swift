/// Time as the networking layer sees it: a monotonic reading and a cancellable sleep. Backoff
/// sleeps and the deadline budget across retries go through it, so tests inject `ManualClock`
/// and never wait. (The in-flight guard of a single exchange uses real time: it bounds real
/// I/O.)
public protocol NetworkClock: Sendable {
  /// Monotonic time since an arbitrary origin.
  func now() -> Duration
  /// Suspends for `duration`.
  /// - Parameter duration: How long.
  /// - Throws: `CancellationError` if the task is cancelled meanwhile.
  func sleep(for duration: Duration) async throws
}

/// The real clock (`ContinuousClock`).
public struct SystemNetworkClock: NetworkClock {
  private let origin = ContinuousClock.now

  /// Creates the clock.
  public init() {}

  /// Time since this clock was created.
  /// - Returns: The elapsed duration.
  public func now() -> Duration { ContinuousClock.now - origin }

  /// Sleeps for real.
  /// - Parameter duration: How long.
  /// - Throws: `CancellationError` when cancelled.
  public func sleep(for duration: Duration) async throws {
    try await Task.sleep(for: duration)
  }
}
