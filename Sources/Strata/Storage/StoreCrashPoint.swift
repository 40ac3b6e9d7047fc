import StrataConcurrency

/// Where the crash tests park a writer to kill it: `append.partial` (a record half written),
/// `compact.written` (a new snapshot complete, not yet in place), `compact.renamed` (in
/// place, the old log not yet removed). Nil — nothing called — outside those tests.
package enum StoreCrashPoint {
  package typealias Pause = @Sendable (String) -> Void
  package static let hook = Lock<Boxed<Pause>?>(nil)
  static var current: Pause? { hook.withLock { $0 }?.value }

  /// Faults the tests inject: given the file a store is about to write (`<base>.log-N` for
  /// an append, `<base>.snapshot` for a compaction), an `errno` to fail with (ENOSPC: a full
  /// disk) or nil. Keyed by path, so tests running side by side only fail their own stores.
  package typealias Fault = @Sendable (_ path: String) -> Int32?
  package static let faults = Lock<Boxed<Fault>?>(nil)
  static func injectedFailure(_ path: String) -> Int32? { faults.withLock { $0 }?.value(path) }
}
