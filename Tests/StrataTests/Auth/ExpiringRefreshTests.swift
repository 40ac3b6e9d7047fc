import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

/// An activity the test ends, as iOS does when it needs the time back before suspending an
/// app: the work it runs is cancelled.
private final class EndableActivity: ExpiringActivity {
  private let running = Lock<[@Sendable () -> Void]>([])

  func run<Result: Sendable>(
    _ reason: String, _ work: @escaping @Sendable () async throws -> Result
  ) async throws -> Result {
    let task = Task { try await work() }
    running.withLock { $0.append { task.cancel() } }
    return try await task.value
  }

  func end() { for cancel in running.withLock({ $0 }) { cancel() } }
}

/// A refresh holds the cross-process lock; the app may be suspended meanwhile. When the system
/// ends the refresh's activity, the refresh stops and the lock is let go — the session is kept
/// for the next try, and no suspended process holds the lock.
@Suite("A refresh the system cuts short lets go of its lock")
struct ExpiringRefreshTests {
  @Test func anEndedActivityCancelsTheRefreshAndReleasesTheLock() async throws {
    let directory = try TemporaryDirectory()
    let store = FileTokenStore(path: directory.path + "/session.json", lockTimeout: .seconds(60))
    try store.save(oldCredentials)
    let activity = EndableActivity()
    let gate = Gate()
    let session = AuthSession(
      origin: exampleOrigin, store: store, options: .init(), activity: activity,
      refresh: { _ in
        await gate.pass()
        try Task.checkCancellation()
        return Credentials(accessToken: "tok-new", refreshToken: "ref-new")
      })
    let refresh = Task { try await session.refresh(rejectedToken: oldCredentials.accessToken) }
    try await gate.waitUntilEntered()  // the refresh holds the lock, waiting for its answer
    activity.end()
    gate.open()
    await #expect(throws: (any Error).self) { _ = try await refresh.value }
    let lock = try await store.lockForRefresh()  // free: the cut refresh let go of it
    lock.release()
    #expect(await session.isSignedIn, "the session is kept for the next try")
    #expect(try store.load()?.accessToken == oldCredentials.accessToken)
  }
}
