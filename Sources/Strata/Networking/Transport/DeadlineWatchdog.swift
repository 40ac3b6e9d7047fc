import Dispatch
import Foundation

/// One thread that fires the deadlines of every in-flight exchange. Registering or cancelling a
/// deadline is a lock and a dictionary operation; the thread sleeps until the earliest
/// deadline and is woken only when a new one is earlier still. (A timer per request costs
/// syscalls each time on Linux; measured, it was most of NetworkService's overhead.)
final class DeadlineWatchdog: @unchecked Sendable {
  // `entries`, `nextID`, `started` and `wakeAt` are only touched with `condition` locked.
  static let shared = DeadlineWatchdog()

  private struct Entry {
    let deadline: UInt64
    let fire: @Sendable () -> Void
  }

  private let condition = NSCondition()
  private var entries: [UInt64: Entry] = [:]
  private var nextID: UInt64 = 0
  private var started = false
  private var wakeAt = UInt64.max

  /// Calls `fire` once `duration` has passed, unless cancelled first.
  /// - Returns: A handle for ``cancel(_:)``.
  func schedule(after duration: Duration, _ fire: @escaping @Sendable () -> Void) -> UInt64 {
    // Saturating: a duration of centuries means "never", not an overflow trap.
    let (whole, overflow) = duration.components.seconds.multipliedReportingOverflow(
      by: 1_000_000_000)
    let (total, carry) = whole.addingReportingOverflow(
      duration.components.attoseconds / 1_000_000_000)
    let nanoseconds = overflow || carry ? Int64.max : total
    let (deadline, late) = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(
      UInt64(clamping: max(0, nanoseconds)))
    let due = late ? UInt64.max : deadline
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
    } else if due < wakeAt {
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

  private func run() {
    condition.lock()
    while true {
      let now = DispatchTime.now().uptimeNanoseconds
      var due: [@Sendable () -> Void] = []
      var earliest = UInt64.max
      for (id, entry) in entries {
        if entry.deadline <= now {
          due.append(entry.fire)
          entries[id] = nil
        } else {
          earliest = min(earliest, entry.deadline)
        }
      }
      if !due.isEmpty {
        condition.unlock()
        for fire in due { fire() }
        condition.lock()
        continue
      }
      wakeAt = earliest
      if earliest == .max {
        condition.wait()
      } else {
        // At most an hour at a time: NSCondition traps on a date centuries away.
        _ = condition.wait(
          until: Date(timeIntervalSinceNow: min(3600, Double(earliest - now) / 1e9)))
      }
      wakeAt = .max
    }
  }
}
