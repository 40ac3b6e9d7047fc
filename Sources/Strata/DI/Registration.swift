import StrataConcurrency

extension DependencyContainer {
  /// How long a resolved instance lives.
  public enum Scope: Sendable, Hashable {
    /// A new instance on every resolve.
    case transient
    /// One instance per container, created on first resolve (factory runs exactly once,
    /// even under concurrent resolution).
    case singleton
    /// Shared while someone holds a strong reference; rebuilt after the last one is released.
    /// Only meaningful for class instances; values behave as transient.
    case weak
  }
}

/// A type-erased registration: scope, factory and optional post-init hook.
final class Registration: Sendable {
  /// Returns `Any`, not `any Sendable`: every `register` requires a `Sendable` service, and
  /// `Any` is what a resolve casts from — converting one existential into the other on each
  /// resolve cost more than the lookup.
  typealias Factory = @Sendable (DependencyContainer, (any Sendable)?) throws -> Any
  typealias Hook = @Sendable (DependencyContainer, Any) throws -> Void

  let key: ServiceKey
  /// The readable name used in errors and listings.
  let label: String
  let scope: DependencyContainer.Scope
  let factory: Factory
  /// Wraps a new singleton for keeping, with the registered type where it is known.
  let keep: @Sendable (Any) -> DependencyContainer.Built
  private let hook = Lock<Boxed<Hook>?>(nil)
  /// Set once a hook is attached: the common resolve (no hook) reads this one atomic word
  /// instead of taking `hook`'s lock.
  private let hooked = AtomicInt(0)
  /// How many resolves of this registration are under way, on every thread: above one, the
  /// resolution path tracks it exactly (a cycle, or concurrent resolves).
  let resolvesUnderWay = AtomicInt(0)

  init(
    key: ServiceKey, label: String, scope: DependencyContainer.Scope,
    keep: @escaping @Sendable (Any) -> DependencyContainer.Built = DependencyContainer.Built.init,
    factory: @escaping Factory
  ) {
    self.key = key
    self.label = label
    self.scope = scope
    self.keep = keep
    self.factory = factory
  }

  var initCompleted: Hook? {
    get { hook.withLock { $0 }?.value }
    set {
      hook.withLock { $0 = newValue.map(Boxed.init) }
      hooked.storeReleasing(newValue == nil ? 0 : 1)
    }
  }

  var hasHook: Bool { hooked.loadAcquiring() != 0 }
}

/// Returned by `register`, to attach a post-init hook for the rare real cycle.
public struct RegistrationHandle<Service: Sendable>: Sendable {
  let registration: Registration

  /// Runs `hook` after an instance is created (and, for singletons, cached), so it may resolve
  /// services that depend back on this one — property injection for a genuine cycle:
  /// ```swift
  /// container.register(Parent.self, scope: .singleton) { _ in Parent() }
  ///   .initCompleted { container, parent in parent.child = try container.resolve(Child.self) }
  /// ```
  /// - Parameter hook: Receives the container and the new instance.
  @discardableResult
  public func initCompleted(
    _ hook: @escaping @Sendable (DependencyContainer, Service) throws -> Void
  ) -> RegistrationHandle<Service> {
    registration.initCompleted = { container, instance in
      if let typed = instance as? Service { try hook(container, typed) }
    }
    return self
  }
}

/// One container's instance of one singleton or weak registration. `building` is held while
/// the factory runs, so a second thread waits for the first build instead of running the
/// factory again; a re-entrant resolve on the same thread is stopped by the cycle check
/// before it gets here, so it never deadlocks.
final class InstanceCell: Sendable {
  /// Every instance came out of a factory of a `Sendable` service (`register` requires one);
  /// it is held as `Any`, as the factory returns it.
  private enum Stored {
    case none
    case strong(Any)
    /// Class instances only; rebuilt once the last strong reference elsewhere is gone.
    case weak(WeakReference)
  }

  private let stored = Lock<Stored>(.none)
  private let building = Lock()

  private var instance: Any? {
    stored.withLock { stored in
      switch stored {
      case .none: nil
      case .strong(let instance): instance
      case .weak(let reference): reference.object
      }
    }
  }

  /// Returns the cached instance or builds, caches and returns a new one (at most one build
  /// at a time). `isNew` tells whether this call built it.
  func getOrBuild(
    weakly: Bool, _ make: () throws -> Any
  ) throws -> (instance: Any, isNew: Bool) {
    try building.withLock { _ in
      if let existing = instance { return (existing, false) }
      let created = try make()
      if !weakly {
        stored.withLock { $0 = .strong(created) }
      } else if type(of: created as Any) is AnyClass {
        stored.withLock { $0 = .weak(WeakReference(created as AnyObject)) }
      }
      return (created, true)
    }
  }
}

/// A weak reference to a class instance; never written after init.
struct WeakReference {
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}
