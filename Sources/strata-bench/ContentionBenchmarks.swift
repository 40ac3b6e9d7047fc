import Foundation
import Strata
import StrataConcurrency
import StrataTesting

/// DI and logging, from 1 and from 8 threads at once: what each costs and what contention
/// adds, beside a yardstick doing the same lookups in a dictionary behind an `NSLock`. The
/// comparison with Swinject itself is `make bench-swinject` (Strata takes no dependency).
enum ContentionBenchmarks {
  static let threads = 8

  static func run() throws -> [BenchmarkResult] {
    try containerResults() + [logging()]
  }

  // MARK: DI

  private final class Leaf: Sendable {}
  private final class Middle: Sendable {
    let leaf: Leaf
    init(leaf: Leaf) { self.leaf = leaf }
  }
  private final class Top: Sendable {
    let middle: Middle
    let leaf: Leaf
    init(middle: Middle, leaf: Leaf) {
      (self.middle, self.leaf) = (middle, leaf)
    }
  }

  /// The yardstick: factories and cached singletons in a dictionary behind one `NSLock`.
  private final class LockedRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var singletons: [ObjectIdentifier: AnyObject] = [:]
    private var factories: [ObjectIdentifier: (LockedRegistry) -> AnyObject] = [:]

    func register<T: AnyObject>(_ type: T.Type, _ factory: @escaping (LockedRegistry) -> T) {
      lock.withLock { factories[ObjectIdentifier(type)] = factory }
    }

    func singleton<T: AnyObject>(_ type: T.Type, _ make: () -> T) -> T {
      lock.withLock {
        if let existing = singletons[ObjectIdentifier(type)] as? T { return existing }
        let created = make()
        singletons[ObjectIdentifier(type)] = created
        return created
      }
    }

    func make<T: AnyObject>(_ type: T.Type) -> T? {
      let factory = lock.withLock { factories[ObjectIdentifier(type)] }
      return factory?(self) as? T
    }
  }

  static func containerResults() throws -> [BenchmarkResult] {
    let container = DependencyContainer()
    container.register(Leaf.self, scope: .singleton) { _ in Leaf() }
    container.register(Leaf.self, name: "transient") { _ in Leaf() }
    container.register(Middle.self) { c in Middle(leaf: try c.resolve(Leaf.self, name: "transient"))
    }
    container.register(Top.self) { c in
      Top(middle: try c.resolve(), leaf: try c.resolve(Leaf.self, name: "transient"))
    }
    let registry = LockedRegistry()
    registry.register(Leaf.self) { _ in Leaf() }
    registry.register(Middle.self) { r in Middle(leaf: r.make(Leaf.self) ?? Leaf()) }
    registry.register(Top.self) { r in
      Top(middle: r.make(Middle.self) ?? Middle(leaf: Leaf()), leaf: r.make(Leaf.self) ?? Leaf())
    }

    let resolves = 200_000
    let single = try perOperation(threads: 1, iterations: resolves) {
      blackHole(try container.resolve(Leaf.self))
    }
    let transient = try perOperation(threads: 1, iterations: resolves) {
      blackHole(try container.resolve(Leaf.self, name: "transient"))
    }
    let contended = try perOperation(threads: threads, iterations: resolves) {
      blackHole(try container.resolve(Leaf.self))
    }
    let lockedSingle = perOperation(threads: 1, iterations: resolves) {
      blackHole(registry.singleton(Leaf.self) { Leaf() })
    }
    let lockedContended = perOperation(threads: threads, iterations: resolves) {
      blackHole(registry.singleton(Leaf.self) { Leaf() })
    }
    let graph = try perOperation(threads: 1, iterations: 100_000) {
      blackHole(try container.resolve(Top.self))
    }
    let lockedGraph = perOperation(threads: 1, iterations: 100_000) {
      blackHole(registry.make(Top.self))
    }
    return [
      .figure("DI singleton, 1 thread", "DependencyContainer.resolve of a built singleton", single),
      .figure(
        "DI transient, 1 thread", "DependencyContainer.resolve building a new instance", transient),
      .figure(
        "DI singleton, \(threads) threads", "the same, \(threads) threads at once", contended),
      .figure(
        "DI singleton, \(threads) threads / 1", "cost per resolve under contention",
        contended / single, unit: "×"),
      .figure(
        "  NSLock dictionary, 1 thread", "yardstick: the same lookup behind NSLock", lockedSingle),
      .figure(
        "  NSLock dictionary, \(threads) threads", "yardstick, \(threads) threads", lockedContended),
      BenchmarkResult(
        name: "DI singleton / NSLock", compares: "a built singleton against its yardstick, one run",
        value: single / lockedSingle, unit: "×", target: "≤ 2×"),
      .figure("DI 3-level transient graph", "Top → Middle → Leaf, 4 resolves, 1 thread", graph),
      .figure("  NSLock dictionary, 3-level graph", "yardstick: 4 factory lookups", lockedGraph),
      BenchmarkResult(
        name: "DI 3-level graph / NSLock", compares: "the graph against its yardstick, one run",
        value: graph / lockedGraph, unit: "×", target: "≤ 2×"),
    ]
  }

  // MARK: Logging

  /// An enabled log call into one sink, from 1 and from 8 threads.
  static func logging() -> BenchmarkResult {
    let sink = CountingLogSink()
    let logger = Log(category: "bench")
    // The process-wide set-up, not a scope: the threads below are not tasks, so a task-local
    // scope would not reach them (they would measure a disabled call). Reset afterwards.
    Log.levels = LogThresholds(global: .trace)
    Log.bootstrap(sink: sink)
    defer { Log.levels = LogThresholds(global: .critical) }
    let single = perOperation(threads: 1, iterations: 50_000) { logger.debug("value is \(42)") }
    let contended = perOperation(threads: threads, iterations: 50_000) {
      logger.debug("value is \(42)")
    }
    let written = sink.written
    guard written == 5 * 50_000 * (1 + threads) else {
      return BenchmarkResult(
        name: "Log call, enabled, \(threads) threads / 1",
        compares: "only \(written) records reached the sink: not measured", value: 0, unit: "×",
        target: "≤ 2×")
    }
    return BenchmarkResult(
      name: "Log call, enabled, \(threads) threads / 1",
      compares: String(
        format: "%.0f ns vs %.0f ns per call, one sink, every record written", contended, single),
      value: contended / single, unit: "×", target: "≤ 2×")
  }

  /// A sink that only counts, so the figure is the logging path's own cost: each thread in a
  /// cache line of its own. A lock convoyed (8 threads queueing on a mutex on 2 cores: one
  /// run in three measured 4–6× the next), and one shared atomic was the contended line —
  /// 80 ns a call from 8 threads, the sink's cost, not the path's.
  private final class CountingLogSink: LogSink, @unchecked Sendable {
    /// `maxThreads` lines of 8 words; a thread counts in the first word of its own line, and
    /// `written` is read after the threads are joined (`DispatchGroup.wait` orders it).
    private static let maxThreads = 256
    private let lines = UnsafeMutablePointer<Int>.allocate(capacity: maxThreads * 8)
    private let threadsSeen = AtomicInt(0)
    private let slot: UnsafeMutablePointer<pthread_key_t> = .allocate(capacity: 1)

    init() {
      lines.initialize(repeating: 0, count: Self.maxThreads * 8)
      pthread_key_create(slot, nil)
    }

    deinit {
      pthread_key_delete(slot.pointee)
      slot.deallocate()
      lines.deallocate()
    }

    func log(_ record: LogRecord) {
      if let line = pthread_getspecific(slot.pointee) {
        line.assumingMemoryBound(to: Int.self).pointee += 1
        return
      }
      let index = threadsSeen.add(1) - 1
      guard index < Self.maxThreads else { return }  // `written` then reports the shortfall
      pthread_setspecific(slot.pointee, lines + index * 8)
      lines[index * 8] += 1
    }

    var written: Int { (0..<Self.maxThreads).reduce(0) { $0 + lines[$1 * 8] } }
  }

  // MARK: Measuring

  /// Median nanoseconds of CPU per operation when `threads` threads each run `body`
  /// `iterations` times at once: wall time × the cores that can run them ÷ all operations.
  /// Without contention it equals the single-thread figure, whatever the core count.
  static func perOperation(
    threads: Int, iterations: Int, _ body: @escaping @Sendable () throws -> Void
  )
    rethrows -> Double
  {
    var samples: [Double] = []
    for _ in 0..<5 {
      let group = DispatchGroup()
      let start = ContinuousClock.now
      for _ in 0..<threads {
        group.enter()
        Thread.detachNewThread {
          for _ in 0..<iterations { try? body() }
          group.leave()
        }
      }
      group.wait()
      let elapsed = Measure.nanoseconds(ContinuousClock.now - start)
      samples.append(elapsed / Double(iterations) * Double(min(threads, cores)) / Double(threads))
    }
    return Measure.median(samples)
  }

  static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
}
