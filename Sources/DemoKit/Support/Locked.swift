import Foundation

/// State shared between threads in the demo app and its test kit, behind an `NSLock` — the lock
/// any app has, since Strata keeps its own locks to itself.
///
/// `@unchecked Sendable` is sound: `state` is private and read or written only inside
/// `withLock`, which holds `lock` for the whole access, so no two threads touch it at once.
package final class Locked<State>: @unchecked Sendable {
  private let lock = NSLock()
  private var state: State

  package init(_ initial: State) { state = initial }

  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }
}
