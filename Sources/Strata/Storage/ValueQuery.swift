import Foundation

/// Which of a store's values to read, in what order, and how many: a filter over the value
/// and its sync status, sort keys each ascending or descending, then `offset` and `limit`.
/// It runs where the values are, under the store's lock, over the values as shown — the
/// device's pending changes included — and builds nothing for a value it skips; a first page
/// (`limit`) keeps only that many while it reads, never sorting the rest.
///
/// ```swift
/// let query = ValueQuery<Article>(
///   where: { $0.userId == 5 }, sortedBy: [.descending(\.views)], limit: 20)
/// ```
public struct ValueQuery<Value: Codable & Sendable>: Sendable {
  /// Only values whose indexed field has one value (nil: any): looked up, not read one by one,
  /// when the store keeps that index.
  public var lookup: ValueLookup<Value>?
  /// Values for which this is false are left out (nil: none is).
  public var filter: (@Sendable (Value) -> Bool)?
  /// Only values in one of these states (nil: any).
  public var statuses: Set<SyncStatus>?
  /// The order, first key first; values equal under every key keep the store's order: the
  /// newest change first, then by key.
  public var order: [ValueOrder<Value>]
  /// How many of the ordered values to skip, then how many at most to return (nil: all).
  public var offset: Int
  public var limit: Int?

  public init(
    _ lookup: ValueLookup<Value>? = nil, where filter: (@Sendable (Value) -> Bool)? = nil,
    statuses: Set<SyncStatus>? = nil, sortedBy order: [ValueOrder<Value>] = [], offset: Int = 0,
    limit: Int? = nil
  ) {
    (self.lookup, self.filter, self.statuses, self.order) = (lookup, filter, statuses, order)
    (self.offset, self.limit) = (max(0, offset), limit.map { max(0, $0) })
  }

  /// Whether `record` is one this query returns (before offset and limit).
  func matches(_ record: StoredRecord<Value>) -> Bool {
    (statuses?.contains(record.status) ?? true)
      && (lookup.map { $0.index.key(record.value) == $0.key } ?? true)
      && (filter?(record.value) ?? true)
  }

  /// Whether `a` comes before `b`: by each sort key in turn, then newest change first, then
  /// by key (a total order, so a page boundary never depends on the table's order).
  func precedes(
    _ a: (key: StoreKey, record: StoredRecord<Value>),
    _ b: (key: StoreKey, record: StoredRecord<Value>)
  ) -> Bool {
    for key in order {
      switch key.compare(a.record.value, b.record.value) {
      case .orderedAscending: return true
      case .orderedDescending: return false
      case .orderedSame: continue
      }
    }
    if a.record.updatedAt != b.record.updatedAt { return a.record.updatedAt > b.record.updatedAt }
    return a.key.precedes(b.key)
  }
}

/// One sort key of a ``ValueQuery``: a value read from each value, compared ascending or
/// descending.
public struct ValueOrder<Value>: Sendable {
  let compare: @Sendable (Value, Value) -> ComparisonResult

  /// Smallest `field` first.
  public static func ascending<Field: Comparable & SendableMetatype>(
    _ field: @escaping @Sendable (Value) -> Field
  )
    -> ValueOrder
  {
    ValueOrder { a, b in
      let (x, y) = (field(a), field(b))
      return x < y ? .orderedAscending : y < x ? .orderedDescending : .orderedSame
    }
  }

  /// Largest `field` first.
  public static func descending<Field: Comparable & SendableMetatype>(
    _ field: @escaping @Sendable (Value) -> Field
  )
    -> ValueOrder
  {
    ValueOrder { a, b in
      let (x, y) = (field(a), field(b))
      return y < x ? .orderedAscending : x < y ? .orderedDescending : .orderedSame
    }
  }
}

extension RecordTable {
  /// The values `query` asks for, in its order: the first `offset + limit` kept in a sorted
  /// window while the table is read once (a binary search per value that beats the window's
  /// last), the rest never sorted.
  func select(_ query: ValueQuery<Value>) -> [(key: StoreKey, record: StoredRecord<Value>)] {
    var kept: [(key: StoreKey, record: StoredRecord<Value>)] = []
    let window = query.limit.map { query.offset.addingReportingOverflow($0) }
      .flatMap { $0.overflow ? nil : $0.partialValue }
    forEach(matching: query) { key, record in
      let candidate = (key: key, record: record)
      if let window {
        guard window > 0 else { return }
        if kept.count == window {
          guard let last = kept.last, query.precedes(candidate, last) else { return }
          kept.removeLast()
        }
        var (low, high) = (0, kept.count)
        while low < high {
          let middle = (low + high) / 2
          if query.precedes(kept[middle], candidate) { low = middle + 1 } else { high = middle }
        }
        kept.insert(candidate, at: low)
      } else {
        kept.append(candidate)
      }
    }
    if window == nil { kept.sort(by: query.precedes) }
    return Array(kept.dropFirst(query.offset).prefix(query.limit ?? Int.max))
  }

  /// How many values `query` matches (offset and limit aside).
  func count(_ query: ValueQuery<Value>) -> Int {
    var count = 0
    forEach(matching: query) { _, _ in count += 1 }
    return count
  }
}
