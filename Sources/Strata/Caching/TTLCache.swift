import Foundation
import StrataConcurrency

/// A small time-to-live cache for repository responses: entries expire `ttl` after they were
/// stored; ``removeAll()`` invalidates everything (call it after a mutation), including loads
/// still in flight, whose results are then handed to their callers but not stored. Concurrent
/// misses for one key share one load.
public actor TTLCache<Key: Hashable & Sendable, Value: Sendable> {
  private struct Entry {
    let value: Value
    let expires: Date
  }

  private var entries: [Key: Entry] = [:]
  /// Bumped by ``removeAll()``: a load that started before it is not stored.
  private var generation = 0
  private var loading: [Key: (generation: Int, task: Task<Value, any Error>)] = [:]
  private let ttl: TimeInterval
  private let now: @Sendable () -> Date
  private let capacity: Int

  private nonisolated let relief = Lock<MemoryPressure.Subscription?>(nil)

  /// - Parameter ttl: How long an entry stays fresh.
  /// - Parameter capacity: Most entries kept; the stalest are dropped first.
  /// - Parameter memoryPressure: What says when to give memory back: half the entries at a
  ///   warning, all at critical.
  /// - Parameter now: Wall-clock time (tests inject their own).
  public init(
    ttl: Duration, capacity: Int = 256, memoryPressure: MemoryPressure = .shared,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.ttl = ttl.inSeconds
    self.capacity = max(1, capacity)
    self.now = now
    relief.withLock {
      $0 = memoryPressure.subscribe { [weak self] level in
        Task { await self?.relieve(level) }
      }
    }
  }

  /// Gives memory back: the fresher half of the entries stays at a warning, none at critical
  /// (loads in flight still hand their values to their callers, and store them).
  func relieve(_ level: MemoryPressureLevel) {
    guard level == .warning else { return entries.removeAll() }
    let stalest = entries.sorted { $0.value.expires < $1.value.expires }.prefix(entries.count / 2)
    for (key, _) in stalest { entries[key] = nil }
  }

  /// How many entries are kept.
  package var count: Int { entries.count }

  /// The fresh value for `key`, if any.
  /// - Returns: The value, or nil when absent or expired.
  package func value(for key: Key) -> Value? {
    guard let entry = entries[key] else { return nil }
    guard entry.expires > now() else {
      entries[key] = nil
      return nil
    }
    return entry.value
  }

  /// Stores `value` for `key`, fresh for the cache's TTL.
  package func store(_ value: Value, for key: Key) {
    if entries.count >= capacity, entries[key] == nil,
      let stalest = entries.min(by: { $0.value.expires < $1.value.expires })?.key
    {
      entries[stalest] = nil
    }
    entries[key] = Entry(value: value, expires: now().addingTimeInterval(ttl))
  }

  /// Forgets every entry, and makes loads in flight not store what they bring.
  public func removeAll() {
    entries.removeAll()
    loading.removeAll()
    generation += 1
  }

  /// Returns the cached value or loads, stores and returns a new one.
  /// - Parameter key: The key.
  /// - Parameter load: Produces the value on a miss.
  /// - Returns: The value and whether it came from the cache.
  /// - Throws: What `load` throws (nothing is stored then).
  public func value(
    for key: Key, orLoad load: @escaping @Sendable () async throws -> Value
  ) async throws -> (value: Value, cached: Bool) {
    if let cached = value(for: key) { return (cached, true) }
    if let inFlight = loading[key], inFlight.generation == generation {
      return (try await inFlight.task.value, false)
    }
    let started = generation
    let task = Task { try await load() }
    loading[key] = (started, task)
    let result = await task.result
    if let current = loading[key], current.task == task { loading[key] = nil }
    let loaded = try result.get()
    if generation == started { store(loaded, for: key) }
    return (loaded, false)
  }
}
