#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// State many threads read at once and few change: readers share a `pthread_rwlock_t`, so they
/// never queue behind one another (a reader preempted inside holds nobody up), and a writer waits
/// for them to finish. For the dependency container, whose lookups
/// vastly outnumber its registrations.
///
/// Not recursive: taking it again on the same thread deadlocks (for reading too, once a
/// writer waits).
package final class ReadWriteLock<State>: @unchecked Sendable {
  // The lock and the state live at stable addresses of their own (see `Lock`).
  @usableFromInline let primitive: UnsafeMutablePointer<pthread_rwlock_t>
  @usableFromInline let state: UnsafeMutablePointer<State>

  package init(_ initial: State) {
    // The same rule as `Lock`'s: a closure as the state itself is kept in a `Boxed`.
    assert(!Lock<State>.isBareFunction, "ReadWriteLock<\(State.self)>: keep a closure in a Boxed")
    state = .placed(initial)
    primitive = .placed(pthread_rwlock_t())
    #if canImport(Glibc)
      // glibc prefers readers by default: a steady stream of lookups would starve a
      // registration, and the writer would block its thread (a cooperative-pool thread, in
      // async code) for as long as the lookups go on. Darwin's lock already favours writers.
      var attributes = pthread_rwlockattr_t()
      pthread_rwlockattr_init(&attributes)
      pthread_rwlockattr_setkind_np(
        &attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
      pthread_rwlock_init(primitive, &attributes)
      pthread_rwlockattr_destroy(&attributes)
    #else
      pthread_rwlock_init(primitive, nil)
    #endif
  }

  deinit {
    pthread_rwlock_destroy(primitive)
    primitive.free()
    state.free()
  }

  /// Runs `body` with shared, read-only access to the state.
  @inlinable
  package func read<Result>(_ body: (borrowing State) throws -> Result) rethrows -> Result {
    pthread_rwlock_rdlock(primitive)
    defer { pthread_rwlock_unlock(primitive) }
    // A read access, never `inout`: readers run at once, and two `inout` accesses at once are
    // a race under Swift's exclusivity rules whatever the body does (ThreadSanitizer reports
    // it; a function-typed state would even be written back). The price is a retain of what
    // the state holds per read: about 10% of a resolve (strata-bench --core).
    return try body(state.pointee)
  }

  /// Runs `body` with exclusive access to the state.
  @inlinable
  package func write<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    pthread_rwlock_wrlock(primitive)
    defer { pthread_rwlock_unlock(primitive) }
    return try body(&state.pointee)
  }
}
