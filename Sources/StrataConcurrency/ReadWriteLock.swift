#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// State many threads read at once and few change: readers share a `pthread_rwlock_t`, so
/// they never queue behind one another (a reader preempted inside holds nobody up), and a
/// writer waits for them to finish. For the dependency container, whose lookups vastly
/// outnumber its registrations.
///
/// Not recursive: taking it again on the same thread for writing deadlocks.
package final class ReadWriteLock<State>: @unchecked Sendable {
  // The lock and the state live at stable addresses of their own (see `Lock`).
  @usableFromInline let primitive: UnsafeMutablePointer<pthread_rwlock_t>
  @usableFromInline let state: UnsafeMutablePointer<State>

  package init(_ initial: State) {
    state = .allocate(capacity: 1)
    state.initialize(to: initial)
    primitive = .allocate(capacity: 1)
    primitive.initialize(to: pthread_rwlock_t())
    pthread_rwlock_init(primitive, nil)
  }

  deinit {
    pthread_rwlock_destroy(primitive)
    primitive.deinitialize(count: 1)
    primitive.deallocate()
    state.deinitialize(count: 1)
    state.deallocate()
  }

  /// Runs `body` with shared, read-only access to the state.
  @inlinable
  package func read<Result>(_ body: (borrowing State) throws -> Result) rethrows -> Result {
    pthread_rwlock_rdlock(primitive)
    defer { pthread_rwlock_unlock(primitive) }
    // Lent in place: `body(state.pointee)` would copy the state (and retain all it holds)
    // wherever the call is not specialised.
    return try Self.lend(&state.pointee, to: body)
  }

  @usableFromInline
  static func lend<Result>(
    _ state: inout State, to body: (borrowing State) throws -> Result
  ) rethrows -> Result {
    try body(state)
  }

  /// Runs `body` with exclusive access to the state.
  @inlinable
  package func write<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    pthread_rwlock_wrlock(primitive)
    defer { pthread_rwlock_unlock(primitive) }
    return try body(&state.pointee)
  }
}
