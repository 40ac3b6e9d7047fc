import Foundation
import Strata
import StrataConcurrency
import Testing

private protocol Greeter: Sendable { var greeting: String { get } }
private final class EnglishGreeter: Greeter { let greeting = "hello" }
private final class MockGreeter: Greeter { let greeting = "mock" }
private final class Service: Sendable {}
private struct ValueService: Sendable { let id: Int }
private struct ServiceA: Sendable {}
private struct ServiceB: Sendable {}
private struct ServiceC: Sendable {}
private struct Broken: Error, Equatable { let reason: String }

/// Counts factory runs across threads.
private final class Counter: Sendable {
  private let value = AtomicInt(0)
  func increment() { value.add(1) }
  var count: Int { value.load() }
}

@Suite("DependencyContainer scopes")
struct ContainerScopeTests {
  @Test func transientIsNewEachTime() throws {
    let container = DependencyContainer()
    container.register(Service.self) { _ in Service() }
    let first: Service = try container.resolve()
    let second: Service = try container.resolve()
    #expect(first !== second)
  }

  @Test func aReplacedSingletonIsReleased() throws {
    let container = DependencyContainer()
    container.register(Service.self, scope: .singleton) { _ in Service() }
    weak var first: Service?
    first = try container.resolve(Service.self)
    #expect(first != nil, "the container holds its singleton")
    container.register(Service.self, scope: .singleton) { _ in Service() }
    let second = try container.resolve(Service.self)
    #expect(first == nil, "nothing keeps the replaced registration's instance")
    #expect(try container.resolve(Service.self) === second)
  }

  @Test func singletonIsTheSameInstance() throws {
    let container = DependencyContainer()
    let counter = Counter()
    container.register(Service.self, scope: .singleton) { _ in
      counter.increment()
      return Service()
    }
    let first = try container.resolve(Service.self)
    let second = try container.resolve(Service.self)
    #expect(first === second)
    #expect(counter.count == 1)
  }

  @Test func weakIsSharedWhileHeldAndRebuiltAfterRelease() throws {
    let container = DependencyContainer()
    let counter = Counter()
    container.register(Service.self, scope: .weak) { _ in
      counter.increment()
      return Service()
    }
    var held: Service? = try container.resolve(Service.self)
    let identity = held.map(ObjectIdentifier.init)
    #expect(try ObjectIdentifier(container.resolve(Service.self)) == identity)
    #expect(counter.count == 1)
    held = nil
    _ = held
    _ = try container.resolve(Service.self)
    #expect(counter.count == 2)
  }

  @Test func protocolRegistrationAndNames() throws {
    let container = DependencyContainer()
    container.register((any Greeter).self) { _ in EnglishGreeter() }
    container.register((any Greeter).self, name: "mock") { _ in MockGreeter() }
    #expect(try container.resolve((any Greeter).self).greeting == "hello")
    #expect(try container.resolve((any Greeter).self, name: "mock").greeting == "mock")
  }

  @Test func oneArgumentResolution() throws {
    let container = DependencyContainer()
    container.register(ValueService.self, argument: Int.self) { _, id in ValueService(id: id) }
    #expect(try container.resolve(ValueService.self, argument: 7).id == 7)
    #expect(throws: DependencyError.self) { try container.resolve(ValueService.self) }
  }

  /// A singleton replaced while its factory runs: the caller gets what that factory built,
  /// and the container keeps none of it — the next resolve builds the new registration's.
  @Test func aSingletonReplacedWhileItsFactoryRunsIsNotKept() throws {
    let container = DependencyContainer()
    container.register((any Greeter).self, scope: .singleton) { resolver in
      container.register((any Greeter).self, scope: .singleton) { _ in MockGreeter() }
      return EnglishGreeter()
    }
    #expect(try container.resolve((any Greeter).self).greeting == "hello")
    #expect(try container.resolve((any Greeter).self).greeting == "mock")
    #expect(try container.resolve((any Greeter).self).greeting == "mock")
  }

  @Test func reRegisteringReplacesAndDropsTheCachedInstance() throws {
    let container = DependencyContainer()
    container.register((any Greeter).self, scope: .singleton) { _ in EnglishGreeter() }
    #expect(try container.resolve((any Greeter).self).greeting == "hello")
    container.register((any Greeter).self, scope: .singleton) { _ in MockGreeter() }
    #expect(try container.resolve((any Greeter).self).greeting == "mock")
  }
}

@Suite("DependencyContainer errors")
struct ContainerErrorTests {
  @Test func missingRegistrationNamesTypeNameAndWhatIsRegistered() throws {
    let container = DependencyContainer()
    container.register(ServiceA.self) { _ in ServiceA() }
    container.register(ServiceB.self, name: "fast") { _ in ServiceB() }
    let error = try #require(throws: DependencyError.self) {
      try container.resolve(ServiceC.self, name: "primary")
    }
    guard case .notRegistered(let service, let registered) = error else {
      Issue.record("wrong error \(error)")
      return
    }
    #expect(service == "ServiceC (name: \"primary\")")
    #expect(registered == ["ServiceA", "ServiceB (name: \"fast\")"])
    #expect(
      error.description
        == "no registration for ServiceC (name: \"primary\"); registered: ServiceA, ServiceB (name: \"fast\")"
    )
  }

  @Test func threeNodeCycleIsDetectedWithTheWholePath() throws {
    let container = DependencyContainer()
    container.register(ServiceA.self, resolvingFirst: ServiceB.self) { ServiceA() }
    container.register(ServiceB.self, resolvingFirst: ServiceC.self) { ServiceB() }
    container.register(ServiceC.self, resolvingFirst: ServiceA.self) { ServiceC() }
    let error = try #require(throws: DependencyError.self) { try container.resolve(ServiceA.self) }
    #expect(error.description == "circular dependency: ServiceA → ServiceB → ServiceC → ServiceA")
    guard case .circularDependency(let path) = error else {
      Issue.record("wrong error \(error)")
      return
    }
    #expect(path == ["ServiceA", "ServiceB", "ServiceC", "ServiceA"])
  }

  /// Transient cycles are found when the path grows past its limit, not by a walk on every
  /// resolve; the error still names the first cycle from the outside in, entered midway, as
  /// an eager check would, and a singleton reached again through a transient is found at once.
  @Test func cyclesAreReportedFromTheirFirstRepeat() throws {
    let container = DependencyContainer()
    container.register(ServiceA.self, resolvingFirst: ServiceB.self) { ServiceA() }
    container.register(ServiceB.self, resolvingFirst: ServiceC.self) { ServiceB() }
    container.register(ServiceC.self, resolvingFirst: ServiceB.self) { ServiceC() }
    container.register(Service.self, scope: .singleton) { c in
      _ = try c.resolve(ServiceA.self, name: "back")
      return Service()
    }
    container.register(ServiceA.self, name: "back") { c in
      _ = try c.resolve(Service.self)
      return ServiceA()
    }
    let transient = try #require(throws: DependencyError.self) {
      try container.resolve(ServiceA.self)
    }
    #expect(transient == .circularDependency(path: ["ServiceB", "ServiceC", "ServiceB"]))
    let singleton = try #require(throws: DependencyError.self) {
      try container.resolve(Service.self)
    }
    #expect(
      singleton
        == .circularDependency(path: ["Service", "ServiceA (name: \"back\")", "Service"]))
  }

  @Test func singletonSelfCycleThrowsInsteadOfDeadlocking() throws {
    let container = DependencyContainer()
    container.register(Service.self, scope: .singleton) { c in
      _ = try c.resolve(Service.self)
      return Service()
    }
    let error = try #require(throws: DependencyError.self) { try container.resolve(Service.self) }
    #expect(error.description == "circular dependency: Service → Service")
  }

  @Test func cycleThroughACapturedContainerIsStillDetected() throws {
    let container = DependencyContainer()
    container.register(ServiceA.self) { _ in
      _ = try container.resolve(ServiceB.self)
      return ServiceA()
    }
    container.register(ServiceB.self) { _ in
      _ = try container.resolve(ServiceA.self)
      return ServiceB()
    }
    #expect(throws: DependencyError.self) { try container.resolve(ServiceA.self) }
  }

  @Test func factoryFailureWrapsTheUnderlyingError() throws {
    let container = DependencyContainer()
    container.register(ServiceA.self) { _ in throw Broken(reason: "disk full") }
    let error = try #require(throws: DependencyError.self) { try container.resolve(ServiceA.self) }
    guard case .factoryFailed(let service, let underlying) = error else {
      Issue.record("wrong error \(error)")
      return
    }
    #expect(service == "ServiceA")
    #expect(underlying as? Broken == Broken(reason: "disk full"))
  }

  @Test func missingDependencyPassesThroughUnwrapped() throws {
    let container = DependencyContainer()
    container.register(ServiceA.self) { c in
      _ = try c.resolve(ServiceB.self)
      return ServiceA()
    }
    let error = try #require(throws: DependencyError.self) { try container.resolve(ServiceA.self) }
    guard case .notRegistered(let service, _) = error else {
      Issue.record("wrong error \(error)")
      return
    }
    #expect(service == "ServiceB")
  }

  @Test func validateReportsEveryFailureTogether() throws {
    let container = DependencyContainer()
    container.register(ServiceA.self) { c in
      _ = try c.resolve(Service.self)
      return ServiceA()
    }
    container.register(ServiceB.self) { _ in throw Broken(reason: "no config") }
    container.register(ServiceC.self) { _ in ServiceC() }
    let error = try #require(throws: DependencyError.self) { try container.validate() }
    guard case .validationFailed(let failures) = error else {
      Issue.record("wrong error \(error)")
      return
    }
    #expect(failures.count == 2)
    #expect(error.description.contains("no registration for Service;"))
    #expect(error.description.contains("factory for ServiceB failed"))
  }

  @Test func validatePassesForAHealthyGraph() throws {
    let container = DependencyContainer()
    container.register(ServiceA.self) { _ in ServiceA() }
    container.register(ServiceB.self) { c in
      _ = try c.resolve(ServiceA.self)
      return ServiceB()
    }
    try container.validate()
  }
}

@Suite("DependencyContainer children and hooks")
struct ContainerChildTests {
  @Test func childOverridesDoNotLeakIntoTheParent() throws {
    let parent = DependencyContainer()
    parent.register((any Greeter).self, scope: .singleton) { _ in EnglishGreeter() }
    let child = DependencyContainer(parent: parent)
    try child.override((any Greeter).self) { _ in MockGreeter() }
    #expect(try child.resolve((any Greeter).self).greeting == "mock")
    #expect(try parent.resolve((any Greeter).self).greeting == "hello")
  }

  @Test func parentRegistrationsResolvedThroughAChildUseTheChildsOverrides() throws {
    struct Consumer: Sendable { let greeter: any Greeter }
    let parent = DependencyContainer()
    parent.register((any Greeter).self) { _ in EnglishGreeter() }
    parent.register(Consumer.self, scope: .singleton) { c in Consumer(greeter: try c.resolve()) }
    let child = DependencyContainer(parent: parent)
    try child.override((any Greeter).self) { _ in MockGreeter() }
    #expect(try child.resolve(Consumer.self).greeter.greeting == "mock")
    #expect(try parent.resolve(Consumer.self).greeter.greeting == "hello")
  }

  @Test func overrideOfNothingIsAnError() throws {
    let container = DependencyContainer()
    #expect(throws: DependencyError.self) {
      try container.override(ServiceA.self) { _ in ServiceA() }
    }
  }

  @Test func initCompletedWiresARealCycle() throws {
    final class Parent: Sendable {
      let child = Lock<Child?>(nil)
    }
    final class Child: Sendable {
      let parent: Parent
      init(parent: Parent) { self.parent = parent }
    }
    let container = DependencyContainer()
    container.register(Parent.self, scope: .singleton) { _ in Parent() }
      .initCompleted { c, parent in parent.child.withLock { $0 = try? c.resolve(Child.self) } }
    container.register(Child.self, scope: .singleton) { c in Child(parent: try c.resolve()) }
    let parent = try container.resolve(Parent.self)
    let child = try #require(parent.child.withLock { $0 })
    #expect(child.parent === parent)
  }

  /// A transient met again under its own resolve is tracked from there on: a bounded
  /// recursion (a tree built by argument) is not a cycle; an unbounded one is.
  @Test func aTransientThatResolvesItselfABoundedNumberOfTimesIsNoCycle() throws {
    final class Node: Sendable {
      let child: Node?
      init(child: Node?) { self.child = child }
      var height: Int { 1 + (child?.height ?? 0) }
    }
    let container = DependencyContainer()
    container.register(Node.self, argument: Int.self) { c, levels in
      Node(child: levels > 1 ? try c.resolve(Node.self, argument: levels - 1) : nil)
    }
    #expect(try container.resolve(Node.self, argument: 50).height == 50)
    container.register(Node.self, argument: Int.self) { c, levels in
      Node(child: try c.resolve(Node.self, argument: levels + 1))
    }
    let error = try #require(throws: DependencyError.self) {
      try container.resolve(Node.self, argument: 0)
    }
    #expect(error == .circularDependency(path: ["Node (argument: Int)", "Node (argument: Int)"]))
  }

  @Test func transientHookLoopIsStopped() throws {
    final class Loop: Sendable {}
    let container = DependencyContainer()
    container.register(Loop.self) { _ in Loop() }
      .initCompleted { c, _ in _ = try c.resolve(Loop.self) }
    #expect(throws: DependencyError.self) { try container.resolve(Loop.self) }
  }

  /// A cycle is reported before it outgrows the stack of an Apple platform's secondary thread
  /// or of the cooperative pool there (512 KiB), in a debug build: found by depth, a cycle
  /// made by factories or by hooks recurses until the limit, and must fit.
  @Test(arguments: [false, true])
  func aCycleIsReportedWithinA512KiBStack(throughHooks: Bool) {
    final class Loop: Sendable {}
    let container = DependencyContainer()
    if throughHooks {
      container.register(Loop.self) { _ in Loop() }
        .initCompleted { c, _ in _ = try c.resolve(Loop.self) }
    } else {
      container.register(Loop.self) { c in
        _ = try c.resolve(Loop.self)
        return Loop()
      }
    }
    let outcome = Lock<String?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      do {
        _ = try container.resolve(Loop.self)
        outcome.withLock { $0 = "resolved" }
      } catch {
        outcome.withLock { $0 = "\(type(of: error))" }
      }
      done.signal()
    }
    thread.stackSize = 512 << 10
    thread.start()
    #expect(done.wait(timeout: .now() + 60) == .success)
    #expect(outcome.withLock { $0 } == "DependencyError")
  }
}

@Suite("DependencyContainer concurrency")
struct ContainerConcurrencyTests {
  @Test func thousandConcurrentResolvesRunASingletonFactoryOnce() async throws {
    let container = DependencyContainer()
    let counter = Counter()
    container.register(Service.self, scope: .singleton) { _ in
      counter.increment()
      return Service()
    }
    let ids = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
      for _ in 0..<1000 {
        group.addTask { ObjectIdentifier(try container.resolve(Service.self)) }
      }
      return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
    }
    #expect(counter.count == 1)
    #expect(ids.count == 1)
  }

  @Test func registrationsWhileOtherThreadsResolveAreSeenAndNothingIsTorn() async throws {
    let container = DependencyContainer()
    container.register(Service.self, scope: .singleton) { _ in Service() }
    // Held to the end: a released instance's address may be reused by the next one.
    let firstInstance = try container.resolve(Service.self)
    let first = ObjectIdentifier(firstInstance)
    let identities = try await withThrowingTaskGroup(of: Set<ObjectIdentifier>.self) { group in
      for _ in 0..<4 {
        group.addTask {
          var seen = Set<ObjectIdentifier>()
          for index in 0..<20_000 {
            seen.insert(ObjectIdentifier(try container.resolve(Service.self)))
            if index % 1_000 == 0 { await Task.yield() }
          }
          return seen
        }
      }
      group.addTask {
        for index in 0..<500 {
          container.register(ValueService.self, name: "n\(index)") { _ in ValueService(id: index) }
          let resolved = try container.resolve(ValueService.self, name: "n\(index)")
          #expect(resolved.id == index)
          if index % 50 == 0 { await Task.yield() }
        }
        return []
      }
      return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.formUnion($1) }
    }
    #expect(identities == [first], "one singleton throughout")
    #expect(try container.resolve(ValueService.self, name: "n499").id == 499)

    // Re-registering after resolving is seen by the next resolve.
    container.register(Service.self, scope: .singleton) { _ in Service() }
    #expect(ObjectIdentifier(try container.resolve(Service.self)) != first)
    withExtendedLifetime(firstInstance) {}
  }

  /// Resolves of one transient under way on several threads at once are tracked (each
  /// thread on a path of its own), never taken for a cycle. Threads, not tasks: each waits
  /// inside the factory until all are there.
  @Test func oneTransientResolvedOnThreeThreadsAtOnceIsNoCycle() throws {
    let threads = 3
    let inside = NSCondition()
    nonisolated(unsafe) var entered = 0
    let container = DependencyContainer()
    container.register(ServiceB.self) { _ in
      inside.lock()
      entered += 1
      inside.broadcast()
      let deadline = Date(timeIntervalSinceNow: 60)  // hang guard only
      while entered < threads, inside.wait(until: deadline) {}
      inside.unlock()
      return ServiceB()
    }
    container.register(ServiceA.self, resolvingFirst: ServiceB.self) { ServiceA() }
    let results = Lock<[Result<ServiceA, any Error>]>([])
    let done = DispatchGroup()
    for _ in 0..<threads {
      done.enter()
      Thread {
        let result = Result { try container.resolve(ServiceA.self) }
        results.withLock { $0.append(result) }
        done.leave()
      }.start()
    }
    #expect(done.wait(timeout: .now() + 300) == .success, "three resolves finished")
    inside.lock()
    #expect(entered == threads, "all three were inside the factory at once")
    inside.unlock()
    for result in results.withLock({ $0 }) { _ = try result.get() }
  }

  @Test func nestedResolutionFromConcurrentTasksDoesNotDeadlock() async throws {
    struct Root: Sendable {}
    let container = DependencyContainer()
    container.register(ServiceA.self, scope: .singleton) { _ in ServiceA() }
    container.register(ServiceB.self, scope: .singleton) { c in
      _ = try c.resolve(ServiceA.self)
      return ServiceB()
    }
    container.register(ServiceC.self) { c in
      _ = try c.resolve(ServiceB.self)
      return ServiceC()
    }
    container.register(Root.self) { c in
      _ = try c.resolve(ServiceA.self)
      _ = try c.resolve(ServiceB.self)
      _ = try c.resolve(ServiceC.self)
      return Root()
    }
    let resolved = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<200 { _ = try container.resolve(Root.self) }
          return 200
        }
      }
      return try await group.reduce(0, +)
    }
    #expect(resolved == 1600)
  }
}

@Suite("DependencyContainer optional resolution")
struct OptionalResolutionTests {
  @Test func anOptionalResolvesTheRegisteredService() throws {
    let container = DependencyContainer()
    container.register((any Greeter).self, scope: .singleton) { _ in EnglishGreeter() }
    let greeter: (any Greeter)? = try container.resolve()
    #expect(greeter?.greeting == "hello")
    let child = DependencyContainer(parent: container)
    let inherited: (any Greeter)? = try child.resolve()
    #expect(inherited?.greeting == "hello")
  }

  @Test func anOptionalOfAnUnregisteredServiceIsNil() throws {
    let container = DependencyContainer()
    let greeter: (any Greeter)? = try container.resolve()
    #expect(greeter == nil)
    #expect(try container.resolve((any Greeter)?.self) == nil)
  }

  @Test func aRegisteredServiceThatFailsStillThrows() {
    let container = DependencyContainer()
    container.register(ServiceA.self) { _ in throw Broken(reason: "no disk") }
    container.register(ServiceB.self) { c in
      _ = try c.resolve(ServiceC.self)  // not registered: a missing dependency, not absence
      return ServiceB()
    }
    #expect(throws: DependencyError.self) { let _: ServiceA? = try container.resolve() }
    #expect(throws: DependencyError.self) { let _: ServiceB? = try container.resolve() }
  }
}

extension DependencyContainer {
  /// Registers `service` (transient) with a factory that resolves `dependency` first: links of
  /// a dependency chain, a cycle when one leads back.
  fileprivate func register<Service: Sendable, Dependency: Sendable>(
    _ service: Service.Type, resolvingFirst dependency: Dependency.Type,
    _ make: @escaping @Sendable () -> Service
  ) {
    register(service) { container in
      _ = try container.resolve(dependency)
      return make()
    }
  }
}
