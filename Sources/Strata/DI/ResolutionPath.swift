#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The chain of services the current thread is building, used to detect cycles before they
/// recurse forever. Resolution is synchronous (a factory cannot suspend), so a per-thread
/// stack is exact, and it follows nested `resolve` calls whether a factory uses the container
/// it was handed or one it captured. A push and a pop cost nanoseconds.
enum ResolutionPath {
  /// A resolution deeper than this is treated as a cycle (guards hook-driven transient loops).
  static let maxDepth = 200

  /// One thread's stack; only ever touched by that thread.
  final class Stack {
    /// The registrations being built, unretained: each is kept alive by the container's
    /// snapshot for the whole resolution, and pushing a pointer costs no reference counting.
    // Touched by one thread only: the runtime's exclusivity check would cost more than the push.
    @exclusivity(unchecked) var entries: [Unmanaged<Registration>] = []
  }

  private static let threadKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
      pthread_key_create(&key) { Unmanaged<Stack>.fromOpaque($0).release() }
    #else
      pthread_key_create(&key) { pointer in
        if let pointer { Unmanaged<Stack>.fromOpaque(pointer).release() }
      }
    #endif
    return key
  }()

  private static var stack: Stack {
    if let pointer = pthread_getspecific(threadKey) {
      return Unmanaged<Stack>.fromOpaque(pointer).takeUnretainedValue()
    }
    let stack = Stack()
    pthread_setspecific(threadKey, Unmanaged.passRetained(stack).toOpaque())
    return stack
  }

  /// Runs `body` with `registration`'s key on the path; throws if it is already on it.
  static func enter<R>(_ registration: Registration, _ body: () throws -> R) throws -> R {
    let stack = stack
    let pointer = Unmanaged.passUnretained(registration)
    if let start = stack.entries.firstIndex(where: { $0.toOpaque() == pointer.toOpaque() }) {
      throw DependencyError.circularDependency(
        path: stack.entries[start...].map { $0.takeUnretainedValue().label } + [registration.label])
    }
    guard stack.entries.count < maxDepth else {
      throw DependencyError.circularDependency(
        path: stack.entries.map { $0.takeUnretainedValue().label } + [registration.label])
    }
    stack.entries.append(pointer)
    defer { stack.entries.removeLast() }
    return try body()
  }
}
