import StrataConcurrency

/// A hand-rolled dependency-injection container: register factories, resolve services.
///
/// ```swift
/// let container = Container()
/// container.register(Networking.self, scope: .singleton) { _ in NetworkService(...) }
/// container.register(UsersRepo.self) { c in UsersRepository(network: try c.resolve()) }
/// let users: UsersRepo = try container.resolve()
/// ```
///
/// - Thread-safe: concurrent resolves of a singleton run its factory exactly once; no
///   container-wide lock is held while a factory runs, so factories may resolve freely.
/// - Cycles throw ``ContainerError/circularDependency(path:)`` naming the whole chain (never a
///   stack overflow or a hang on one thread). Two threads entering the same singleton cycle
///   from opposite ends could wait on each other; ``validate()`` finds such cycles first.
/// - Child containers (`Container(parent:)`) see the parent's registrations, may override
///   them, and keep their own instances: an override never leaks into the parent, and a
///   parent registration resolved through the child gets the child's dependencies.
public final class Container: Sendable {
  private struct State {
    var registrations: [ServiceKey: Registration] = [:]
    var cells: [ServiceKey: InstanceCell] = [:]
  }

  /// The container whose registrations this one inherits, if any.
  public let parent: Container?
  private let state = Lock(State())

  /// Creates an empty container, optionally inheriting a parent's registrations.
  /// - Parameter parent: The container to fall back to for unregistered services.
  public init(parent: Container? = nil) { self.parent = parent }

  // MARK: Registering

  /// Registers a factory for a service. Registering the same type and name again replaces the
  /// earlier registration (and its cached instance) in this container.
  /// - Parameters:
  ///   - type: The service type, usually a protocol (`Networking.self`).
  ///   - name: Distinguishes several registrations of one type.
  ///   - scope: How long instances live (default `.transient`).
  ///   - factory: Builds the service; receives the resolving container for its dependencies.
  /// - Returns: A handle for attaching an `initCompleted` hook.
  @discardableResult
  public func register<Service: Sendable>(
    _ type: Service.Type = Service.self, name: String? = nil, scope: Scope = .transient,
    factory: @escaping @Sendable (Container) throws -> Service
  ) -> RegistrationHandle<Service> {
    let key = ServiceKey(type, name: name)
    let label = ServiceKey.label(type, name: name)
    return add(
      Registration(key: key, label: label, scope: scope) { container, _ in try factory(container) })
  }

  /// Registers a factory that takes one argument at resolution time (always transient):
  /// `container.resolve(UserDetailViewModel.self, argument: userID)`.
  /// - Parameters:
  ///   - type: The service type.
  ///   - argument: The argument type.
  ///   - name: Distinguishes several registrations of one type.
  ///   - factory: Builds the service from the container and the argument.
  /// - Returns: A handle for attaching an `initCompleted` hook.
  @discardableResult
  public func register<Service: Sendable, Argument: Sendable>(
    _ type: Service.Type = Service.self, argument: Argument.Type, name: String? = nil,
    factory: @escaping @Sendable (Container, Argument) throws -> Service
  ) -> RegistrationHandle<Service> {
    let key = ServiceKey(type, name: name, argument: argument)
    let label = ServiceKey.label(type, name: name, argument: argument)
    return add(
      Registration(key: key, label: label, scope: .transient) { container, value in
        guard let typed = value as? Argument else {
          throw ContainerError.notRegistered(service: label, registered: [])
        }
        return try factory(container, typed)
      })
  }

  /// Replaces a registration that exists here or in a parent, in this container only: the
  /// parent keeps its own. Use it in tests, usually on a child container.
  /// - Parameters:
  ///   - type: The service type.
  ///   - name: The registration's name.
  ///   - scope: Scope of the replacement.
  ///   - factory: Builds the replacement.
  /// - Throws: ``ContainerError/notRegistered(service:registered:)`` when there is nothing to
  ///   override (a typo would otherwise silently test the real service).
  public func override<Service: Sendable>(
    _ type: Service.Type = Service.self, name: String? = nil, scope: Scope = .transient,
    factory: @escaping @Sendable (Container) throws -> Service
  ) throws {
    let key = ServiceKey(type, name: name)
    guard registration(for: key) != nil else {
      throw ContainerError.notRegistered(
        service: ServiceKey.label(type, name: name), registered: registeredLabels())
    }
    register(type, name: name, scope: scope, factory: factory)
  }

  private func add<Service>(_ registration: Registration) -> RegistrationHandle<Service> {
    state.withLock { state in
      state.registrations[registration.key] = registration
      state.cells[registration.key] = nil
    }
    return RegistrationHandle(registration: registration)
  }

  // MARK: Resolving

  /// Resolves a service.
  /// - Parameters:
  ///   - type: The service type (inferred from context when omitted).
  ///   - name: The registration's name.
  /// - Returns: The instance, per the registration's scope.
  /// - Throws: ``ContainerError``: not registered, circular dependency, or factory failed.
  public func resolve<Service: Sendable>(
    _ type: Service.Type = Service.self, name: String? = nil
  ) throws -> Service {
    let key = ServiceKey(type, name: name)
    return try typed(resolveInstance(key, argument: nil) { ServiceKey.label(type, name: name) })
  }

  /// Resolves a one-argument registration.
  /// - Parameters:
  ///   - type: The service type.
  ///   - name: The registration's name.
  ///   - argument: Passed to the factory.
  /// - Returns: A new instance.
  /// - Throws: ``ContainerError``.
  public func resolve<Service: Sendable, Argument: Sendable>(
    _ type: Service.Type = Service.self, name: String? = nil, argument: Argument
  ) throws -> Service {
    let key = ServiceKey(type, name: name, argument: Argument.self)
    return try typed(
      resolveInstance(key, argument: argument) {
        ServiceKey.label(type, name: name, argument: Argument.self)
      })
  }

  /// Registrations are keyed by the service type, so the cast only fails if a factory's
  /// result was bridged to another type; report it rather than trap.
  private func typed<Service>(_ instance: Any) throws -> Service {
    guard let typed = instance as? Service else {
      throw ContainerError.factoryFailed(
        service: String(describing: Service.self),
        underlying: ContainerError.notRegistered(
          service: String(describing: Service.self), registered: []))
    }
    return typed
  }

  private func resolveInstance(
    _ key: ServiceKey, argument: (any Sendable)?, label: () -> String
  ) throws -> Any {
    if let cached = state.withLock({ $0.cells[key] })?.instance { return cached }
    guard let registration = registration(for: key) else {
      throw ContainerError.notRegistered(service: label(), registered: registeredLabels())
    }
    return try ResolutionPath.enter(key, label: registration.label) { () throws -> Any in
      let (instance, isNew): (Any, Bool)
      switch registration.scope {
      case .transient:
        (instance, isNew) = (try build(registration, argument: argument), true)
      case .singleton, .weak:
        (instance, isNew) = try cell(for: key).getOrBuild(weakly: registration.scope == .weak) {
          try build(registration, argument: argument)
        }
      }
      if isNew, let hook = registration.initCompleted {
        do { try hook(self, instance) } catch { throw Self.wrap(error, for: registration.label) }
      }
      return instance
    }
  }

  private func build(_ registration: Registration, argument: (any Sendable)?) throws -> any Sendable
  {
    do {
      return try registration.factory(self, argument)
    } catch {
      throw Self.wrap(error, for: registration.label)
    }
  }

  private static func wrap(_ error: any Error, for label: String) -> any Error {
    if error is ContainerError { return error }
    return ContainerError.factoryFailed(service: label, underlying: error)
  }

  private func cell(for key: ServiceKey) -> InstanceCell {
    state.withLock { state in
      if let existing = state.cells[key] { return existing }
      let created = InstanceCell()
      state.cells[key] = created
      return created
    }
  }

  private func registration(for key: ServiceKey) -> Registration? {
    state.withLock { $0.registrations[key] } ?? parent?.registration(for: key)
  }

  // MARK: Inspection

  /// Every registration visible from this container (its own and its parents'), as labels.
  public var registeredServices: [String] { registeredLabels() }

  private func registeredLabels() -> [String] {
    var labels = Set(state.withLock { $0.registrations.values.map(\.label) })
    if let parent { labels.formUnion(parent.registeredLabels()) }
    return labels.sorted()
  }

  private func allRegistrations() -> [ServiceKey: Registration] {
    var result = parent?.allRegistrations() ?? [:]
    for (key, registration) in state.withLock({ $0.registrations }) { result[key] = registration }
    return result
  }

  /// Resolves every registration once (argument registrations excepted: they need a value)
  /// and reports every failure together.
  /// - Throws: ``ContainerError/validationFailed(_:)`` listing each failure.
  public func validate() throws {
    var failures: [ContainerError] = []
    let registrations = allRegistrations().values.filter { $0.key.argument == nil }
    for registration in registrations.sorted(by: { $0.label < $1.label }) {
      do {
        _ = try resolveInstance(registration.key, argument: nil) { registration.label }
      } catch let error as ContainerError {
        failures.append(error)
      } catch {
        failures.append(.factoryFailed(service: registration.label, underlying: error))
      }
    }
    if !failures.isEmpty { throw ContainerError.validationFailed(failures) }
  }
}
