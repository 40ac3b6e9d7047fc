#if canImport(Darwin)
  import os
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The package's one lock: state guarded by `os_unfair_lock` on Apple platforms and a
/// `pthread_mutex_t` elsewhere. Unlike `Synchronization.Mutex` it needs no iOS 18 / macOS 15,
/// and it stays fast when many threads contend (on this toolchain's Linux, `Mutex` costs
/// ~3.7 µs per lock with 8 threads, a pthread mutex ~60 ns).
///
/// Not recursive: taking it again on the same thread deadlocks, as with any mutex.
package final class Lock<State>: @unchecked Sendable {
  // The lock lives at a stable address of its own (never moved, as both primitives require).
  #if canImport(Darwin)
    @usableFromInline let primitive: UnsafeMutablePointer<os_unfair_lock>
  #else
    @usableFromInline let primitive: UnsafeMutablePointer<pthread_mutex_t>
  #endif
  // The state lives outside the object too: reached through a pointer, an access is guarded
  // by the lock alone (no runtime exclusivity check, which would also see a zero-size
  // `Void` state as a racing access).
  @usableFromInline let state: UnsafeMutablePointer<State>

  package init(_ initial: State) {
    // A closure as the state itself is re-wrapped in thunks at every access: see `Boxed`.
    assert(!Self.isBareFunction, "Lock<\(State.self)>: keep a closure in a Boxed")
    state = .placed(initial)
    #if canImport(Darwin)
      primitive = .placed(os_unfair_lock())
    #else
      primitive = .placed(pthread_mutex_t())
      pthread_mutex_init(primitive, nil)
    #endif
  }

  deinit {
    #if !canImport(Darwin)
      pthread_mutex_destroy(primitive)
    #endif
    primitive.free()
    state.free()
  }

  /// Runs `body` with exclusive access to the state.
  @inlinable
  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    #if canImport(Darwin)
      os_unfair_lock_lock(primitive)
      defer { os_unfair_lock_unlock(primitive) }
    #else
      pthread_mutex_lock(primitive)
      defer { pthread_mutex_unlock(primitive) }
    #endif
    return try body(&state.pointee)
  }
}

extension Lock {
  /// Whether `State` is a function type, an optional one or a tuple holding one: the states
  /// whose closures an `inout` access converts and writes back (a closure inside a struct, a
  /// class or a collection is not: it stays where it is).
  package static var isBareFunction: Bool {
    var name = Substring(String(describing: State.self))
    while name.hasPrefix("Optional<"), name.hasSuffix(">") { name = name.dropFirst(9).dropLast() }
    return (name.hasPrefix("(") || name.hasPrefix("@")) && name.contains(" -> ")
  }
}

extension Lock where State == Void {
  package convenience init() { self.init(()) }
}

extension UnsafeMutablePointer {
  /// One value at an address of its own, which never moves until ``free()``.
  static func placed(_ value: Pointee) -> Self {
    let pointer = Self.allocate(capacity: 1)
    pointer.initialize(to: value)
    return pointer
  }

  func free() {
    deinitialize(count: 1)
    deallocate()
  }
}
