import Foundation
import StrataConcurrency

/// The requests the sandbox received, in order, so tests can assert how many attempts and
/// refreshes happened. Bounded: only the newest ``capacity`` entries are kept, so a
/// long-running sandbox does not grow without limit.
public final class RequestJournal: Sendable {
  public struct Entry: Sendable {
    /// The method (`GET`, …).
    public let method: String
    /// The path without the query.
    public let path: String
    public let query: [(name: String, value: String)]
    /// Header fields as received (including `Authorization`: this is a test aid).
    public let headers: [(name: String, value: String)]
    /// The body's first ``RequestJournal/bodyPrefixLimit`` bytes.
    public let body: Data
    public let timestamp: Date

    /// The first header with this name, case-insensitively.
    /// - Returns: Its value, or nil.
    public func header(_ name: String) -> String? {
      HeaderFields.values(name, in: headers).first
    }
  }

  /// How much of each body is kept (4 KiB): enough to check what a client sent, bounded.
  public static let bodyPrefixLimit = 4_096

  /// A ring: once full, the newest entry overwrites the oldest in O(1).
  private struct Ring {
    var slots: [Entry] = []
    var oldest = 0

    var ordered: [Entry] { Array(slots[oldest...] + slots[..<oldest]) }

    mutating func append(_ entry: Entry, capacity: Int) {
      if slots.count < capacity {
        slots.append(entry)
      } else {
        slots[oldest] = entry
        oldest = (oldest + 1) % capacity
      }
    }
  }

  private let storage = Lock(Ring())
  /// How many entries are kept (the oldest are dropped first).
  public let capacity: Int

  /// Creates an empty journal.
  /// - Parameter capacity: How many entries to keep (default 10,000).
  public init(capacity: Int = 10_000) { self.capacity = max(0, capacity) }

  /// Copies the body's prefix: a `Data` slice would keep the whole body alive for as long as
  /// the entry (10,000 entries of 290 KB bodies held 2.9 GB).
  func record(_ request: SandboxRequest) {
    guard capacity > 0 else { return }
    let entry = Entry(
      method: request.method, path: request.path, query: request.query, headers: request.headers,
      body: Data(Array(request.body.prefix(Self.bodyPrefixLimit))),
      timestamp: request.receivedAt)
    storage.withLock { $0.append(entry, capacity: capacity) }
  }

  /// Every entry kept, oldest first.
  public var entries: [Entry] { storage.withLock { $0.ordered } }

  /// How many requests matched.
  /// - Parameter method: The method, or nil for any.
  /// - Parameter path: The exact path, or nil for any.
  public func count(method: String? = nil, path: String? = nil) -> Int {
    storage.withLock { ring in
      ring.slots.count {
        (method == nil || $0.method == method) && (path == nil || $0.path == path)
      }
    }
  }

  public func reset() { storage.withLock { $0 = Ring() } }
}
