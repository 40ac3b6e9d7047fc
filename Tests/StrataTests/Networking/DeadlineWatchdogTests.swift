import Foundation
import StrataConcurrency
import Testing

@testable import Strata

/// A deadline is on the time line that goes on while the device sleeps: time the clock jumps
/// by (a sleep, which an uptime clock would not count) fires it as soon as the watchdog wakes.
@Suite("Deadlines count time asleep")
struct DeadlineWatchdogTests {
  @Test func aJumpOfTheClockFiresTheDeadlinesItPassed() async throws {
    let time = Lock(Duration.zero)
    let watchdog = DeadlineWatchdog(now: { time.withLock { $0 } })
    let fired = Lock<[String]>([])
    _ = watchdog.schedule(after: .seconds(10)) { fired.withLock { $0.append("10 s") } }
    _ = watchdog.schedule(after: .seconds(3600)) { fired.withLock { $0.append("1 h") } }
    let cancelled = watchdog.schedule(after: .seconds(5)) { fired.withLock { $0.append("no") } }
    watchdog.cancel(cancelled)
    // The device sleeps 11 s: no wall-clock wait passes that long in this test.
    time.withLock { $0 = .seconds(11) }
    watchdog.wake()
    try await waitUntil("the 10 s deadline fired") { fired.withLock { $0 } == ["10 s"] }
    #expect(fired.withLock { $0 } == ["10 s"], "the hour is not up, the cancelled one never")
  }

  /// The service's own watchdog fires on its own (real time, read from `ContinuousClock`).
  @Test func theSharedWatchdogFires() async throws {
    let fired = Lock(false)
    _ = DeadlineWatchdog.shared.schedule(after: .milliseconds(1)) { fired.withLock { $0 = true } }
    try await waitUntil("a 1 ms deadline fired") { fired.withLock { $0 } }
  }
}
