import StrataConcurrency

extension Container {
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
  typealias Factory = @Sendable (Container, (any Sendable)?) throws -> any Sendable
  typealias Hook = @Sendable (Container, Any) throws -> Void

  let key: ServiceKey
  /// The readable name used in errors and listings.
  let label: String
  let scope: Container.Scope
  let factory: Factory
  private let hook = Lock<Hook?>(nil)

  init(key: ServiceKey, label: String, scope: Container.Scope, factory: @escaping Factory) {
    self.key = key
    self.label = label
    self.scope = scope
    self.factory = factory
  }

  var initCompleted: Hook? {
    get { hook.withLock { $0 } }
    set { hook.withLock { $0 = newValue } }
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
  /// - Returns: The same handle.
  @discardableResult
  public func initCompleted(
    _ hook: @escaping @Sendable (Container, Service) throws -> Void
  ) -> RegistrationHandle<Service> {
    registration.initCompleted = { container, instance in
      if let typed = instance as? Service { try hook(container, typed) }
    }
    return self
  }
}

/// One container's cached instance of one registration. Two locks: `value` is held only to
/// read or store, `build` is held while the factory runs, so a second thread waits for the
/// first build instead of running the factory again, and a re-entrant resolve on the same
/// thread reaches the cycle check instead of deadlocking.
final class InstanceCell: Sendable {
  private enum Stored: @unchecked Sendable {
    // Every stored instance came out of a factory typed `-> any Sendable`; it is kept as
    // `Any` only so a weak reference can be read back without a marker-protocol cast.
    case none
    case strong(Any)
    case weak(WeakBox)
  }

  private let value = Lock<Stored>(.none)
  private let build = Lock(())

  var instance: Any? {
    value.withLock { stored in
      switch stored {
      case .none: nil
      case .strong(let instance): instance
      case .weak(let box): box.object
      }
    }
  }

  /// Returns the cached instance or builds, caches and returns a new one (at most one build
  /// at a time). `isNew` tells whether this call built it.
  func getOrBuild(
    weakly: Bool, _ make: () throws -> any Sendable
  ) throws -> (instance: Any, isNew: Bool) {
    try build.withLock { _ in
      if let existing = instance { return (existing, false) }
      let created = try make()
      value.withLock { stored in
        if weakly, type(of: created as Any) is AnyClass {
          stored = .weak(WeakBox(created as AnyObject))
        } else if !weakly {
          stored = .strong(created)
        }
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
