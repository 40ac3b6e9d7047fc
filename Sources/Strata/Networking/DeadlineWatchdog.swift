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
    let nanoseconds =
      duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    let deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(clamping: max(0, nanoseconds))
    condition.lock()
    defer { condition.unlock() }
    nextID &+= 1
    entries[nextID] = Entry(deadline: deadline, fire: fire)
    if !started {
      started = true
      let thread = Thread { [self] in run() }
      thread.name = "strata-deadlines"
      thread.stackSize = 128 * 1024
      thread.start()
    } else if deadline < wakeAt {
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
        _ = condition.wait(until: Date(timeIntervalSinceNow: Double(earliest - now) / 1e9))
      }
      wakeAt = .max
    }
  }
}
