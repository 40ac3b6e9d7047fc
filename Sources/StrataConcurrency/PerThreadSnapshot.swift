#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A value every thread reads on a hot path and writers rarely replace: each thread keeps its
/// own reference to the newest copy and takes a lock only when a generation counter says the
/// value changed. A reader writes no shared memory — with a reader-writer lock every read
/// increments the lock's counter, and with eight threads masking log lines that one cache
/// line was the cost.
///
/// A replaced value lives on until every thread that read it has read again (or exited).
package final class PerThreadSnapshot<Value: Sendable>: @unchecked Sendable {
  /// One published copy; a thread's slot holds one retained reference to it.
  final class Copy {
    let generation: Int
    let value: Value
    init(generation: Int, value: Value) { (self.generation, self.value) = (generation, value) }
  }

  private let generation = AtomicInt(0)
  private let latest: Lock<Copy>
  private let slot: UnsafeMutablePointer<pthread_key_t>

  package init(_ value: Value) {
    latest = Lock(Copy(generation: 0, value: value))
    slot = .placed(pthread_key_t())
    // The destructor runs at thread exit for a slot holding a value: it drops that thread's
    // reference. (Any Swift class releases through `AnyObject`.)
    #if canImport(Darwin)
      pthread_key_create(slot) { Unmanaged<AnyObject>.fromOpaque($0).release() }
    #else
      pthread_key_create(slot) { pointer in
        if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
      }
    #endif
  }

  deinit {
    // A copy a thread still holds outlives a deleted key (its destructor no longer runs): a
    // leak for an instance that dies before the process, as a test's may; the library's are
    // statics.
    pthread_key_delete(slot.pointee)
    slot.free()
  }

  /// Runs `body` with this thread's copy of the newest value. `body` must not read this
  /// snapshot again: a nested read that found a newer value would release the copy the outer
  /// `body` is still borrowing.
  package func read<Result>(_ body: (borrowing Value) throws -> Result) rethrows -> Result {
    let current = generation.loadAcquiring()
    if let raw = pthread_getspecific(slot.pointee) {
      let copy = Unmanaged<Copy>.fromOpaque(raw)
      if copy._withUnsafeGuaranteedRef({ $0.generation }) == current {
        return try copy._withUnsafeGuaranteedRef { try Self.lend($0, to: body) }
      }
    }
    let fresh = latest.withLock { $0 }
    let previous = pthread_getspecific(slot.pointee)
    pthread_setspecific(slot.pointee, Unmanaged.passRetained(fresh).toOpaque())
    if let previous { Unmanaged<Copy>.fromOpaque(previous).release() }
    return try Self.lend(fresh, to: body)
  }

  /// Lets `change` edit a copy of the current value and publishes it when `change` returns
  /// true; readers see it on their next read.
  package func update(_ change: (inout Value) -> Bool) {
    latest.withLock { copy in
      var value = copy.value
      guard change(&value) else { return }
      copy = Copy(generation: copy.generation + 1, value: value)
      generation.storeReleasing(copy.generation)
    }
  }

  private static func lend<Result>(
    _ copy: Copy, to body: (borrowing Value) throws -> Result
  ) rethrows -> Result {
    try body(copy.value)
  }
}
