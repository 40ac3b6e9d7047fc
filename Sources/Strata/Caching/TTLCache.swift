import Foundation

/// A small time-to-live cache for repository responses: entries expire `ttl` after they were
/// stored; ``removeAll()`` invalidates everything (call it after a mutation).
public actor TTLCache<Key: Hashable & Sendable, Value: Sendable> {
  private struct Entry {
    let value: Value
    let expires: Date
  }

  private var entries: [Key: Entry] = [:]
  private let ttl: TimeInterval
  private let now: @Sendable () -> Date
  private let capacity: Int

  /// Creates a cache.
  /// - Parameters:
  ///   - ttl: How long an entry stays fresh.
  ///   - capacity: Most entries kept; the stalest are dropped first.
  ///   - now: Wall-clock time (tests inject their own).
  public init(ttl: Duration, capacity: Int = 256, now: @escaping @Sendable () -> Date = { Date() })
  {
    self.ttl = ttl.inSeconds
    self.capacity = max(1, capacity)
    self.now = now
  }

  /// The fresh value for `key`, if any.
  /// - Parameter key: The key.
  /// - Returns: The value, or nil when absent or expired.
  public func value(for key: Key) -> Value? {
    guard let entry = entries[key] else { return nil }
    guard entry.expires > now() else {
      entries[key] = nil
      return nil
    }
    return entry.value
  }

  /// Stores `value` for `key`, fresh for the cache's TTL.
  /// - Parameters:
  ///   - value: The value.
  ///   - key: The key.
  public func store(_ value: Value, for key: Key) {
    if entries.count >= capacity, entries[key] == nil,
      let stalest = entries.min(by: { $0.value.expires < $1.value.expires })?.key
    {
      entries[stalest] = nil
    }
    entries[key] = Entry(value: value, expires: now().addingTimeInterval(ttl))
  }

  /// Forgets every entry.
  public func removeAll() { entries.removeAll() }

  /// Returns the cached value or loads, stores and returns a new one.
  /// - Parameters:
  ///   - key: The key.
  ///   - load: Produces the value on a miss.
  /// - Returns: The value and whether it came from the cache.
  /// - Throws: What `load` throws (nothing is stored then).
  public func value(
    for key: Key, orLoad load: @Sendable () async throws -> Value
  ) async throws -> (value: Value, cached: Bool) {
    if let cached = value(for: key) { return (cached, true) }
    let loaded = try await load()
    store(loaded, for: key)
    return (loaded, false)
  }
}
