/// Values by key with their sizes, most recently used first: what both tiers of ``HTTPCache``
/// evict from. Every operation is O(1) (a doubly linked list through the dictionary), so a
/// lookup or a store costs the same with 10 entries or 10,000.
struct RecencyList<Value> {
  private struct Node {
    var value: Value
    var size: Int
    var newer: String?
    var older: String?
  }

  private var nodes: [String: Node] = [:]
  private var head: String?
  private var tail: String?
  private(set) var bytes = 0

  var count: Int { nodes.count }

  /// The value for `key`, marked as just used.
  mutating func use(_ key: String) -> Value? {
    guard let node = nodes[key] else { return nil }
    if head != key {
      unlink(key)
      link(key)
    }
    return node.value
  }

  /// Puts `value` first, replacing any value under `key`; returns the keys evicted to stay
  /// within `budget` bytes (oldest first; never the one just put, unless it alone is over).
  mutating func put(_ key: String, _ value: Value, size: Int, budget: Int) -> [String] {
    remove(key)
    nodes[key] = Node(value: value, size: size)
    bytes += size
    link(key)
    var evicted: [String] = []
    while bytes > budget, let oldest = tail {
      remove(oldest)
      evicted.append(oldest)
    }
    return evicted
  }

  /// Drops the least recently used values until at most `budget` bytes are left.
  mutating func trim(to budget: Int) {
    while bytes > budget, let oldest = tail { remove(oldest) }
  }

  mutating func reserveCapacity(_ count: Int) { nodes.reserveCapacity(count) }

  /// Every key with its size, least recently used first (one pass: a compaction, not a lookup).
  var oldestFirst: [(key: String, size: Int)] {
    var keys: [(key: String, size: Int)] = []
    keys.reserveCapacity(nodes.count)
    var next = tail
    while let key = next, let node = nodes[key] {
      keys.append((key, node.size))
      next = node.newer
    }
    return keys
  }

  mutating func remove(_ key: String) {
    guard let node = nodes[key] else { return }
    unlink(key)
    nodes[key] = nil
    bytes -= node.size
  }

  /// Removes every key `matching` accepts: one pass over all of them (a sign-out, not a
  /// lookup).
  mutating func removeAll(where matching: (String) -> Bool) {
    for key in nodes.keys where matching(key) { remove(key) }
  }

  private mutating func link(_ key: String) {
    nodes[key]?.older = head
    nodes[key]?.newer = nil
    if let head { nodes[head]?.newer = key }
    head = key
    if tail == nil { tail = key }
  }

  private mutating func unlink(_ key: String) {
    guard let node = nodes[key] else { return }
    if let newer = node.newer { nodes[newer]?.older = node.older } else { head = node.older }
    if let older = node.older { nodes[older]?.newer = node.newer } else { tail = node.newer }
  }
}
