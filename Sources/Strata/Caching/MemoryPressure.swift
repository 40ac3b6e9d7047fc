import Dispatch
import Foundation
import StrataConcurrency

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// How short of memory the system is.
public enum MemoryPressureLevel: String, Sendable {
  /// Give back what is cheap to get again: in-memory caches keep half.
  case warning
  /// Give back all you can: in-memory caches empty. Never what a user made (an outbox) nor
  /// what is on disk.
  case critical
}

/// The one place that says when the system runs short of memory: ``HTTPCache``'s memory tier
/// and every ``TTLCache`` (so the repositories' caches) subscribe, and give back memory — half
/// at a warning, all at critical — never the disk tier, never a ``LocalStore``.
///
/// ``shared`` is armed on the system's signal the first time something subscribes: on Apple
/// platforms the dispatch memory-pressure source; on Linux a pressure-stall trigger on the
/// process's cgroup (`memory.pressure`) or else `/proc/pressure/memory` — a thread asleep in
/// `poll(2)` until the kernel says, never a busy loop. Where the kernel allows no trigger,
/// ``shared`` only relays ``signal(_:)``. An app hears the signals through ``updates()``; a
/// test makes its own instance and drives it with ``signal(_:)``.
public final class MemoryPressure: Sendable {
  /// The process's instance, on the system's signal.
  public static let shared = MemoryPressure(system: true)

  private struct State {
    var handlers: [Int: @Sendable (MemoryPressureLevel) -> Void] = [:]
    var next = 0
    var armed = false
  }

  private let state = Lock(State())
  private let system: Bool
  /// What the system's signal comes from once armed (`/proc/pressure/memory`, `dispatch`), or
  /// why there is none.
  var source: String { sourceText.withLock { $0 } }
  private let sourceText = Lock("not armed: nothing subscribed yet")

  /// An instance that only relays ``signal(_:)`` (tests, or an app with a signal of its own).
  public convenience init() { self.init(system: false) }

  private init(system: Bool) {
    self.system = system
    if !system { sourceText.withLock { $0 = "none: signalled by the app" } }
  }

  /// Every signal from now on, until the consumer stops iterating (the newest kept when it
  /// falls behind). The first listener of ``shared`` arms it.
  public func updates() -> AsyncStream<MemoryPressureLevel> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: MemoryPressureLevel.self, bufferingPolicy: .bufferingNewest(1))
    let subscription = subscribe { continuation.yield($0) }
    continuation.onTermination = { _ in subscription.cancel() }
    return stream
  }

  /// Calls `handler` at every signal, on a thread of the signal's, until the returned
  /// subscription is cancelled or released: the caches' way, which gives memory back before
  /// the signal's thread returns. The first subscription to ``shared`` arms it.
  func subscribe(_ handler: @escaping @Sendable (MemoryPressureLevel) -> Void)
    -> Subscription
  {
    let (id, arm) = state.withLock { state in
      state.next += 1
      state.handlers[state.next] = handler
      defer { state.armed = true }
      return (state.next, system && !state.armed)
    }
    if arm { sourceText.withLock { $0 = Self.armSystemSource(self) } }
    return Subscription { [weak self] in self?.state.withLock { $0.handlers[id] = nil } }
  }

  /// How many subscriptions are live (a test's way to see one go).
  var listenerCount: Int { state.withLock { $0.handlers.count } }

  /// Tells every subscriber.
  public func signal(_ level: MemoryPressureLevel) {
    for handler in state.withLock({ Array($0.handlers.values) }) { handler(level) }
  }

  /// A subscription: cancelled by ``cancel()`` or when released.
  final class Subscription: Sendable {
    private let end: Lock<Boxed<@Sendable () -> Void>?>
    init(_ end: @escaping @Sendable () -> Void) { self.end = Lock(Boxed(end)) }
    func cancel() { end.withLock { $0.take() }?.value() }
    deinit { cancel() }
  }

  /// Arms the platform's source to call `pressure.signal`; says what it armed, or why none.
  private static func armSystemSource(_ pressure: MemoryPressure) -> String {
    #if canImport(Darwin)
      let source = DispatchSource.makeMemoryPressureSource(
        eventMask: [.warning, .critical], queue: .global(qos: .utility))
      source.setEventHandler { [weak pressure] in
        pressure?.signal(source.data.contains(.critical) ? .critical : .warning)
      }
      source.activate()
      dispatchSources.withLock { $0.append(source) }
      return "dispatch memory-pressure source"
    #else
      let cgroup = PressureStallTrigger.cgroupFile()
      for path in [cgroup, "/proc/pressure/memory"].compactMap({ $0 }) {
        guard let warning = PressureStallTrigger(path: path, stall: "some"),
          let critical = PressureStallTrigger(path: path, stall: "full")
        else { continue }
        PressureStallTrigger.watch([(warning, .warning), (critical, .critical)]) {
          [weak pressure] in pressure?.signal($0)
        }
        return path
      }
      return "none: the kernel allows no pressure-stall trigger here (no PSI, or not permitted)"
    #endif
  }

  #if canImport(Darwin)
    /// The armed sources, kept for the life of the process.
    private static let dispatchSources = Lock<[any DispatchSourceMemoryPressure]>([])
  #endif
}
