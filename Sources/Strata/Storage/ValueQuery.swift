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

  /// Whether the value `record` points at is one this query returns (before offset and
  /// limit). Reads it in place and is written without generic helpers (`Optional.map`): in the
  /// store's unspecialised loop each copy would go through the value's metadata, per value.
  @inline(__always)
  func matches(_ record: UnsafePointer<StoredRecord<Value>>) -> Bool {
    if let statuses, !statuses.contains(record.pointee.status) { return false }
    if let lookup, lookup.index.key(record.pointee.value) != lookup.key { return false }
    if let filter, !filter(record.pointee.value) { return false }
    return true
  }

  /// Whether the value `a` points at (kept under `aKey`) comes before the one `b` points at:
  /// by each sort key in turn, then newest change first, then by key (a total order, so a
  /// page boundary never depends on the table's order).
  @inline(__always)
  func precedes(
    _ a: UnsafePointer<StoredRecord<Value>>, _ aKey: StoreKey,
    _ b: UnsafePointer<StoredRecord<Value>>, _ bKey: StoreKey
  ) -> Bool {
    for key in order {
      switch key.compare(a.pointee.value, b.pointee.value) {
      case .orderedAscending: return true
      case .orderedDescending: return false
      case .orderedSame: continue
      }
    }
    let (first, second) = (a.pointee.updatedAt, b.pointee.updatedAt)
    if first != second { return first > second }
    return aKey.precedes(bKey)
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
