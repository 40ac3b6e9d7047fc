import StrataConcurrency

extension DependencyContainer {
  /// How long a resolved instance lives.
  public enum Scope: Sendable, Hashable {
    /// A new instance on every resolve.
    case transient
    /// One instance per container, created on first resolve (factory runs exactly once, even
    /// under concurrent resolution).
    case singleton
    /// Shared while someone holds a strong reference; rebuilt after the last one is released.
    /// Only meaningful for class instances; values behave as transient.
    case weak
  }
}

/// A type-erased registration: scope, factory and optional post-init hook.
final class Registration: Sendable {
  typealias Factory = @Sendable (DependencyContainer, (any Sendable)?) throws -> any Sendable
  typealias Hook = @Sendable (DependencyContainer, Any) throws -> Void

  let key: ServiceKey
  /// The readable name used in errors and listings.
  let label: String
  let scope: DependencyContainer.Scope
  let factory: Factory
  private let hook = Lock<Hook?>(nil)
  /// Whether a hook is set: read on every new instance without taking the lock.
  private let hasHook = AtomicInt(0)

  init(key: ServiceKey, label: String, scope: DependencyContainer.Scope, factory: @escaping Factory)
  {
    self.key = key
    self.label = label
    self.scope = scope
    self.factory = factory
  }

  var initCompleted: Hook? {
    get { hasHook.loadAcquiring() == 0 ? nil : hook.withLock { $0 } }
    set {
      hook.withLock { $0 = newValue }
      hasHook.storeReleasing(newValue == nil ? 0 : 1)
    }
  }
}

/// Returned by `register`, to attach a post-init hook for the rare real cycle.
public struct RegistrationHandle<Service: Sendable>: Sendable {
  let registration: Registration

  /// Runs `hook` after an instance is created (and, for singletons, cached), so it may resolve
  /// services that depend back on this one — property injection for a genuine cycle:
  ///
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

/// One container's cached instance of one registration. A built singleton is read without a
/// lock (published once, release/acquire); `build` is held while the factory runs, so a second
/// thread waits for the first build instead of running the factory again, and a re-entrant
/// resolve on the same thread reaches the cycle check instead of deadlocking. Weak instances,
/// which can go away, are read under `weakValue`'s lock.
final class InstanceCell: Sendable {
  /// A built instance. Every stored instance came out of a factory typed `-> any Sendable`;
  /// it is kept as `Any` only so a weak reference can be read back without a marker-protocol
  /// cast.
  private final class Built: @unchecked Sendable {
    let instance: Any
    init(_ instance: Any) { self.instance = instance }
  }

  private let strong = PublishedReference<Built>()
  private let weakValue = Lock<WeakBox?>(nil)
  private let build = Lock()

  @inline(__always)
  var instance: Any? {
    if let built = strong.unmanaged {
      return built._withUnsafeGuaranteedRef { (cell: Built) -> Any? in cell.instance }
    }
    return weakValue.withLock { $0?.object }
  }

  /// Returns the cached instance or builds, caches and returns a new one (at most one build
  /// at a time). `isNew` tells whether this call built it.
  func getOrBuild(
    weakly: Bool, _ make: () throws -> any Sendable
  ) throws -> (instance: Any, isNew: Bool) {
    try build.withLock { _ in
      if let existing = instance { return (existing, false) }
      let created = try make()
      if !weakly {
        strong.setIfEmpty(Built(created))
      } else if type(of: created as Any) is AnyClass {
        weakValue.withLock { $0 = WeakBox(created as AnyObject) }
      }
      return (created, true)
    }
  }
}

/// A weak reference to a Sendable instance.
final class WeakBox: @unchecked Sendable {
  // Written once in init; the referent is Sendable (checked by the caller).
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}
