import CStrataAtomics

/// A word-sized integer read and written atomically, for counters and flags on paths that
/// must not take a lock (a disabled log call, a cached singleton).
package final class AtomicInt: @unchecked Sendable {
  @usableFromInline let storage: UnsafeMutablePointer<Int>

  package init(_ initial: Int = 0) {
    storage = .allocate(capacity: 1)
    storage.initialize(to: initial)
  }

  deinit { storage.deallocate() }

  /// The value, with no ordering against other memory (counters, thresholds).
  @inlinable
  package func load() -> Int { strata_atomic_load_relaxed(storage) }

  /// The value, ordered after everything the last ``storeReleasing(_:)`` published.
  @inlinable
  package func loadAcquiring() -> Int { strata_atomic_load_acquire(storage) }

  /// Stores `value`, publishing every write made before it.
  @inlinable
  package func storeReleasing(_ value: Int) { strata_atomic_store_release(storage, value) }

  /// Adds `delta` and returns the new value.
  @inlinable @discardableResult
  package func add(_ delta: Int) -> Int { strata_atomic_add(storage, delta) }

  /// Sets `desired` if the value is `expected`; whether it did.
  @inlinable
  package func compareExchange(expected: Int, desired: Int) -> Bool {
    strata_atomic_compare_exchange(storage, expected, desired)
  }
}
