import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Memory pressure: one seam every in-memory cache subscribes to. A warning halves the memory
/// tiers, critical empties them; the disk tier and what a user made stay. The tests drive
/// instances of their own (the process's shared one is the system's).
@Suite("Memory pressure: caches give memory back, the disk keeps its answers")
struct MemoryPressureTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  static func request(_ number: Int) -> URLRequest {
    URLRequest(url: URL(string: "https://api.example/items/\(number)")!)
  }

  static func keep(_ count: Int, in cache: HTTPCache) {
    for number in 0..<count {
      cache.store(
        CachedResponse(
          status: 200, headers: ["cache-control": "max-age=600"],
          body: Data(#"{"id":\#(number)}"#.utf8), requestTime: now, responseTime: now,
          varied: [:]), for: request(number), owner: .device, epoch: nil)
    }
  }

  @Test func theHTTPCachesMemoryTierHalvesThenEmpties() {
    let pressure = MemoryPressure()
    let cache = HTTPCache(memoryPressure: pressure, now: { Self.now })
    Self.keep(40, in: cache)
    let full = cache.memoryTier
    #expect(full.count == 40)
    pressure.signal(.warning)
    #expect(cache.memoryTier.bytes <= full.bytes / 2 && cache.memoryTier.count >= 19)
    #expect(cache.lookUp(Self.request(39), owner: .device) != nil, "the newest stay")
    #expect(cache.lookUp(Self.request(0), owner: .device) == nil, "the oldest went")
    pressure.signal(.critical)
    #expect(cache.memoryTier.count == 0)
  }

  /// A cache on disk gives back its memory tier only: every answer is still read from disk.
  @Test func theDiskTierStays() throws {
    let root = NSTemporaryDirectory() + "strata-pressure-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let pressure = MemoryPressure()
    let cache = HTTPCache(
      app: "strata-tests", origin: Origin("https://api.example")!, memoryPressure: pressure,
      environment: ["XDG_CACHE_HOME": root, "HOME": root], now: { Self.now })
    Self.keep(10, in: cache)
    pressure.signal(.critical)
    #expect(cache.memoryTier.count == 0)
    #expect((0..<10).allSatisfy { cache.lookUp(Self.request($0), owner: .device) != nil })
  }

  @Test func aTTLCacheKeepsItsFresherHalfThenNothing() async throws {
    let pressure = MemoryPressure()
    let clock = ManualClock()
    let start = Self.now
    let cache = TTLCache<Int, String>(ttl: .seconds(60), memoryPressure: pressure) {
      start.addingTimeInterval(clock.now().inSeconds)
    }
    for key in 0..<10 {
      _ = try await cache.value(for: key) { "value \(key)" }
      clock.advance(by: .seconds(1))
    }
    await cache.relieve(.warning)
    #expect(await cache.count == 5)
    #expect(await cache.value(for: 9) == "value 9")
    #expect(await cache.value(for: 0) == nil)
    pressure.signal(.critical)
    await eventuallyEmpty(cache)
  }

  private func eventuallyEmpty(_ cache: TTLCache<Int, String>) async {
    // The signal reaches the actor through a task of its own: wait for it (a hang guard).
    let deadline = ContinuousClock.now + .seconds(300)
    while await cache.count > 0, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(2))
    }
    #expect(await cache.count == 0)
  }

  @Test func aCancelledOrReleasedSubscriptionHearsNothing() {
    let pressure = MemoryPressure()
    let heard = Lock<[MemoryPressureLevel]>([])
    let kept = pressure.subscribe { level in heard.withLock { $0.append(level) } }
    var released: MemoryPressure.Subscription? = pressure.subscribe { level in
      heard.withLock { $0.append(level) }
    }
    pressure.signal(.warning)
    released = nil
    pressure.signal(.critical)
    kept.cancel()
    pressure.signal(.warning)
    #expect(heard.withLock { $0 } == [.warning, .warning, .critical])
    _ = released
  }

  /// An app hears the signals through `updates()`; a stream it stops iterating no longer
  /// listens.
  @Test func updatesTellEverySignalUntilTheStreamEnds() async {
    let pressure = MemoryPressure()
    var updates: AsyncStream<MemoryPressureLevel>? = pressure.updates()
    var iterator = updates?.makeAsyncIterator()
    pressure.signal(.warning)
    #expect(await iterator?.next() == .warning)
    pressure.signal(.critical)
    #expect(await iterator?.next() == .critical)
    let heard = Lock(0)
    let other = pressure.subscribe { _ in heard.withLock { $0 += 1 } }
    (updates, iterator) = (nil, nil)  // the stream ends: its subscription goes
    pressure.signal(.warning)
    #expect(heard.withLock { $0 } == 1)
    #expect(pressure.listenerCount == 1, "only the one still subscribed")
    other.cancel()
  }

  #if os(Linux)
    static let kernelTrigger = FileManager.default.isWritableFile(atPath: "/proc/pressure/memory")

    /// On Linux the shared instance arms a real pressure-stall trigger, where the kernel lets
    /// this process write one.
    @Test(
      .enabled(if: kernelTrigger, "no writable /proc/pressure/memory: PSI off or not permitted"))
    func theSharedInstanceArmsTheKernelsTrigger() {
      let subscription = MemoryPressure.shared.subscribe { _ in }
      defer { subscription.cancel() }
      let source = MemoryPressure.shared.source
      #expect(source.hasSuffix("memory.pressure") || source == "/proc/pressure/memory", "\(source)")
    }
  #endif
}
