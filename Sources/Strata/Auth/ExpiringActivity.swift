import Dispatch
import Foundation

/// Work the system may cut short: on iOS, tvOS, watchOS and visionOS an app can be suspended
/// at any moment, and one suspended holding a file lock in a shared App Group container is
/// ended by the system (`0xdead10cc`). A session's refresh holds the cross-process refresh
/// lock, so it runs as one of these: when the system says the time is up, the work is
/// cancelled and the lock let go before the app is suspended.
protocol ExpiringActivity: Sendable {
  /// Runs `work`, cancelling it if the system asks for the time back.
  func run<Result: Sendable>(
    _ reason: String, _ work: @escaping @Sendable () async throws -> Result
  ) async throws -> Result
}

/// The platform's: `ProcessInfo.performExpiringActivity` where apps are suspended, the work
/// as it is elsewhere (macOS, Linux).
struct SystemActivity: ExpiringActivity {

  func run<Result: Sendable>(
    _ reason: String, _ work: @escaping @Sendable () async throws -> Result
  ) async throws -> Result {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      let finished = DispatchSemaphore(value: 0)
      let task = Task {
        defer { finished.signal() }
        return try await work()
      }
      // Called on a thread of its own with `false` (the activity lasts while the block runs:
      // it waits for the work) and, if the system needs the time back, again with `true`.
      ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
        if expired { task.cancel() } else { finished.wait() }
      }
      return try await task.value
    #else
      return try await work()
    #endif
  }
}
