import Dispatch
import Foundation

/// One thread that fires the deadlines of every in-flight exchange. Registering or cancelling a
/// deadline is a lock and a dictionary operation; the thread sleeps until the earliest
/// deadline and is woken only when a new one is earlier still. (A timer per request costs
/// syscalls each time on Linux; measured, it was most of NetworkService's overhead.)
///
/// Deadlines are kept on the service's own time line, `ContinuousClock` — which goes on while
/// the device sleeps, as the call's overall deadline does — never on an uptime clock
/// (`DispatchTime`), which stops: a transfer must not outlive its deadline because the laptop
/// was closed. The thread waits by wall time, at most a minute at a time, and measures again
/// on waking, so time asleep counts as soon as it wakes.
final class DeadlineWatchdog: @unchecked Sendable {
  // `entries`, `nextID`, `started` and `wakeAt` are only touched with `condition` locked.
  static let shared = DeadlineWatchdog()

  private struct Entry {
    let deadline: Duration
    let fire: @Sendable () -> Void
  }

  private let condition = NSCondition()
  private var entries: [UInt64: Entry] = [:]
  private var nextID: UInt64 = 0
  private var started = false
  private var wakeAt: Duration?
  /// Time on the deadlines' line: since an origin, as `ContinuousClock` counts it (tests give
  /// one that jumps, as a device's clock does across a sleep).
  private let now: @Sendable () -> Duration

  private static let origin = ContinuousClock.now

  /// The longest deadline kept: further is "never" (and adds without overflow).
  private static let longest = Duration.seconds(Int64(100 * 365) * 86_400)

  init(now: @escaping @Sendable () -> Duration = { ContinuousClock.now - DeadlineWatchdog.origin })
  {
    self.now = now
  }

  /// Calls `fire` once `duration` has passed, unless cancelled first.
  /// - Returns: A handle for ``cancel(_:)``.
  func schedule(after duration: Duration, _ fire: @escaping @Sendable () -> Void) -> UInt64 {
    let due = now() + min(max(duration, .zero), Self.longest)
    condition.lock()
    defer { condition.unlock() }
    nextID &+= 1
    entries[nextID] = Entry(deadline: due, fire: fire)
    if !started {
      started = true
      let thread = Thread { [self] in run() }
      thread.name = "strata-deadlines"
      thread.stackSize = 128 * 1024
      thread.start()
    } else if wakeAt.map({ due < $0 }) ?? true {
      condition.signal()
    }
    return nextID
  }

  /// Forgets a deadline (the exchange finished in time).
  func cancel(_ id: UInt64) {
    condition.lock()
    entries[id] = nil
    condition.unlock()
  }

  /// Measures the time again at once (what waking from a sleep does).
  func wake() {
    condition.lock()
    condition.signal()
    condition.unlock()
  }

  private func run() {
    condition.lock()
    while true {
      let now = self.now()
      var due: [@Sendable () -> Void] = []
      var earliest: Duration?
      for (id, entry) in entries {
        if entry.deadline <= now {
          due.append(entry.fire)
          entries[id] = nil
        } else {
          earliest = min(earliest ?? entry.deadline, entry.deadline)
        }
      }
      if !due.isEmpty {
        condition.unlock()
        for fire in due { fire() }
        condition.lock()
        continue
      }
      wakeAt = earliest
      if let earliest {
        // By wall time, at most a minute: then the time line is read again.
        _ = condition.wait(
          until: Date(timeIntervalSinceNow: min(60, (earliest - now).inSeconds)))
      } else {
        condition.wait()
      }
      wakeAt = nil
    }
  }
}
