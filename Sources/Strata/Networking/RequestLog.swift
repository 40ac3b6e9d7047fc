import StrataConcurrency

/// The newest request records, kept for inspection (a debug screen, a bug report, a test):
/// a ring of at most ``capacity`` ``RequestRecord``s. Set it as
/// ``NetworkOptions/requestLog``.
public final class RequestLog: Sendable {
  /// Most records kept; older ones are dropped.
  public let capacity: Int
  private let ring: Lock<(records: [RequestRecord], oldest: Int)>

  /// Creates an empty log.
  public init(capacity: Int = 1_000) {
    self.capacity = max(1, capacity)
    ring = Lock(([], 0))
  }

  /// Adds a record, dropping the oldest when full.
  public func append(_ record: RequestRecord) {
    ring.withLock { ring in
      if ring.records.count < capacity {
        ring.records.append(record)
      } else {
        ring.records[ring.oldest] = record
        ring.oldest = (ring.oldest + 1) % capacity
      }
    }
  }

  /// The records, oldest first.
  public var records: [RequestRecord] {
    ring.withLock { Array($0.records[$0.oldest...] + $0.records[..<$0.oldest]) }
  }
}
