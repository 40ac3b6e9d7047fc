import StrataConcurrency

/// A hand-rolled dependency-injection container: register factories, resolve services.
///
/// ```swift
/// let container = DependencyContainer()
/// container.register(Networking.self, scope: .singleton) { _ in NetworkService(...) }
/// container.register(UsersRepository.self) { c in APIUsersRepository(network: try c.resolve()) }
/// let users: UsersRepository = try container.resolve()
/// ```
///
/// - Thread-safe: concurrent resolves of a singleton run its factory exactly once; no
///   container-wide lock is held while a factory runs, so factories may resolve freely.
/// - Cycles throw ``DependencyError/circularDependency(path:)`` naming the whole chain (never a
///   stack overflow or a hang on one thread). Two threads entering the same singleton cycle
///   from opposite ends could wait on each other; ``validate()`` finds such cycles first.
/// - Child containers (`DependencyContainer(parent:)`) see the parent's registrations, may override
///   them, and keep their own instances: an override never leaks into the parent, and a
///   parent registration resolved through the child gets the child's dependencies.
public final class DependencyContainer: Sendable {
  private struct State {
    var registrations: [ServiceKey: Registration] = [:]
    var cells: [ServiceKey: InstanceCell] = [:]
    /// Snapshots replaced since: resolves in flight may still read them (see ``Snapshot``).
    var retired: [Snapshot] = []
  }

  /// What a resolve reads without a lock: this container's registrations and instance cells
  /// at one moment. Published on the first resolve after a change (so registering many
  /// services publishes once); a replaced snapshot is kept until the container is released,
  /// since a concurrent resolve may still be reading it.
  final class Snapshot: Sendable {
    /// A key's registration here (nil: it is the parent's) and this container's cell for it,
    /// unretained — the snapshot holds them (``owned``) — so that reading an entry costs no
    /// reference counting on objects every thread shares.
    struct Entry: @unchecked Sendable {
      let unmanagedRegistration: Unmanaged<Registration>?
      let unmanagedCell: Unmanaged<InstanceCell>?

      var registration: Registration? { unmanagedRegistration?.takeUnretainedValue() }
      var cell: InstanceCell? { unmanagedCell?.takeUnretainedValue() }

      /// The cell's built instance, if any: the only reference count it touches is the
      /// instance's own.
      @inline(__always)
      var builtInstance: Any? { unmanagedCell?._withUnsafeGuaranteedRef { $0.instance } }
    }
    let entries: [ServiceKey: Entry]
    /// Keeps every registration and cell an entry points to alive as long as the snapshot.
    private let owned: [any AnyObject & Sendable]

    init(registrations: [ServiceKey: Registration], cells: [ServiceKey: InstanceCell]) {
      var entries: [ServiceKey: Entry] = [:]
      for key in Set(registrations.keys).union(cells.keys) {
        entries[key] = Entry(
          unmanagedRegistration: registrations[key].map(Unmanaged.passUnretained),
          unmanagedCell: cells[key].map(Unmanaged.passUnretained))
      }
      self.entries = entries
      self.owned = Array(registrations.values) + Array(cells.values)
    }
  }

  /// The container whose registrations this one inherits, if any.
  public let parent: DependencyContainer?
  private let state = Lock(State())
  private let published = PublishedReference<Snapshot>()

  /// Creates an empty container, optionally inheriting a parent's registrations.
  /// - Parameter parent: The container to fall back to for unregistered services.
  public init(parent: DependencyContainer? = nil) { self.parent = parent }

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
    factory: @escaping @Sendable (DependencyContainer) throws -> Service
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
    factory: @escaping @Sendable (DependencyContainer, Argument) throws -> Service
  ) -> RegistrationHandle<Service> {
    let key = ServiceKey(type, name: name, argument: argument)
    let label = ServiceKey.label(type, name: name, argument: argument)
    return add(
      Registration(key: key, label: label, scope: .transient) { container, value in
        guard let typed = value as? Argument else {
          throw DependencyError.notRegistered(service: label, registered: [])
        }
        return try factory(container, typed)
      })
  }

  /// Replaces a registration that exists here or in a parent, in this container only: the
  /// parent keeps its own. Use it in tests, usually on a child container.
  /// - Throws: ``DependencyError/notRegistered(service:registered:)`` when there is nothing to
  ///   override (a typo would otherwise silently test the real service).
  public func override<Service: Sendable>(
    _ type: Service.Type = Service.self, name: String? = nil, scope: Scope = .transient,
    factory: @escaping @Sendable (DependencyContainer) throws -> Service
  ) throws {
    let key = ServiceKey(type, name: name)
    guard registration(for: key) != nil else {
      throw DependencyError.notRegistered(
        service: ServiceKey.label(type, name: name), registered: registeredLabels())
    }
    register(type, name: name, scope: scope, factory: factory)
  }

  private func add<Service>(_ registration: Registration) -> RegistrationHandle<Service> {
    state.withLock { state in
      state.registrations[registration.key] = registration
      // Singletons get their cell now, so a resolve never has to republish for one.
      state.cells[registration.key] = registration.scope == .transient ? nil : InstanceCell()
      retireSnapshot(&state)
    }
    return RegistrationHandle(registration: registration)
  }

  /// Unpublishes the current snapshot (the next resolve publishes a new one).
  private func retireSnapshot(_ state: inout State) {
    if let previous = published.publish(nil) { state.retired.append(previous) }
  }

  /// `key`'s entry in the current snapshot.
  @inline(__always)
  private func entry(for key: ServiceKey) -> Snapshot.Entry? {
    guard let current = published.unmanaged else { return snapshot.entries[key] }
    return current._withUnsafeGuaranteedRef { $0.entries[key] }
  }

  /// The current snapshot: one atomic load, or, after a change, built and published once.
  @inline(__always)
  private var snapshot: Snapshot {
    if let current = published.value { return current }
    return state.withLock { state in
      if let current = published.value { return current }
      let snapshot = Snapshot(registrations: state.registrations, cells: state.cells)
      published.publish(snapshot)
      return snapshot
    }
  }

  // MARK: Resolving

  /// - Parameters:
  ///   - type: The service type (inferred from context when omitted).
  ///   - name: The registration's name.
  /// - Returns: The instance, per the registration's scope.
  /// - Throws: ``DependencyError``: not registered, circular dependency, or factory failed.
  @inlinable
  public func resolve<Service: Sendable>(
    _ type: Service.Type = Service.self, name: String? = nil
  ) throws -> Service {
    // Inlinable, so the caller's compiler specialises it: no generic metadata lookups.
    let key = ServiceKey(type, name: name)
    let instance = try resolveInstance(key, argument: nil) { ServiceKey.label(type, name: name) }
    if let typed = instance as? Service { return typed }
    throw Self.typeMismatch(Service.self)
  }

  /// Resolves a service that may be missing: `let s: Service? = try container.resolve()` is nil
  /// when `Service` is registered neither here nor in a parent. Registered, it resolves as the
  /// non-optional form does, and its failures (a factory error, a missing dependency,
  /// a cycle) still throw: only the service's own absence is nil.
  public func resolve<Service: Sendable>(
    _ type: Service?.Type = Service?.self, name: String? = nil
  ) throws -> Service? {
    let key = ServiceKey(Service.self, name: name)
    guard registration(for: key) != nil else { return nil }
    return try resolve(Service.self, name: name)
  }

  /// Resolves a one-argument registration.
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
    guard let typed = instance as? Service else { throw Self.typeMismatch(Service.self) }
    return typed
  }

  @usableFromInline
  static func typeMismatch(_ type: Any.Type) -> DependencyError {
    DependencyError.factoryFailed(
      service: String(describing: type),
      underlying: DependencyError.notRegistered(service: String(describing: type), registered: []))
  }

  @usableFromInline
  func resolveInstance(
    _ key: ServiceKey, argument: (any Sendable)?, label: () -> String
  ) throws -> Any {
    // The hot path — a singleton already built — reads one snapshot and one cell: no lock,
    // and no reference count traffic on the shared snapshot.
    let entry = entry(for: key)
    if let cached = entry?.builtInstance { return cached }
    guard let registration = entry?.registration ?? parent?.registration(for: key) else {
      throw DependencyError.notRegistered(service: label(), registered: registeredLabels())
    }
    return try ResolutionPath.enter(registration) { () throws -> Any in
      let (instance, isNew): (Any, Bool)
      switch registration.scope {
      case .transient:
        (instance, isNew) = (try build(registration, argument: argument), true)
      case .singleton, .weak:
        (instance, isNew) = try (entry?.cell ?? cell(for: key)).getOrBuild(
          weakly: registration.scope == .weak
        ) {
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
    if error is DependencyError { return error }
    return DependencyError.factoryFailed(service: label, underlying: error)
  }

  /// This container's cell for `key`: made here for a parent's registration resolved through
  /// this container (it keeps its own instance).
  private func cell(for key: ServiceKey) -> InstanceCell {
    return state.withLock { state in
      if let existing = state.cells[key] { return existing }
      let created = InstanceCell()
      state.cells[key] = created
      retireSnapshot(&state)
      return created
    }
  }

  private func registration(for key: ServiceKey) -> Registration? {
    snapshot.entries[key]?.registration ?? parent?.registration(for: key)
  }

  // MARK: Inspection

  /// Every registration visible from this container (its own and its parents'), as labels.
  public var registeredServices: [String] { registeredLabels() }

  private func registeredLabels() -> [String] {
    var labels = Set(snapshot.entries.values.compactMap { $0.registration?.label })
    if let parent { labels.formUnion(parent.registeredLabels()) }
    return labels.sorted()
  }

  private func allRegistrations() -> [ServiceKey: Registration] {
    var result = parent?.allRegistrations() ?? [:]
    for (key, entry) in snapshot.entries {
      if let registration = entry.registration { result[key] = registration }
    }
    return result
  }

  /// Resolves every registration once (argument registrations excepted: they need a value)
  /// and reports every failure together.
  /// - Throws: ``DependencyError/validationFailed(_:)`` listing each failure.
  public func validate() throws {
    var failures: [DependencyError] = []
    let registrations = allRegistrations().values.filter { $0.key.argument == nil }
    for registration in registrations.sorted(by: { $0.label < $1.label }) {
      do {
        _ = try resolveInstance(registration.key, argument: nil) { registration.label }
      } catch let error as DependencyError {
        failures.append(error)
      } catch {
        failures.append(.factoryFailed(service: registration.label, underlying: error))
      }
    }
    if !failures.isEmpty { throw DependencyError.validationFailed(failures) }
  }
}
