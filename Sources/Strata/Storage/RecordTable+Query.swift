/// A query run where the values are: its window — the first `offset + limit` values in its
/// order, or every match without a limit — read in one pass, or brought up to date from the
/// values that changed since it was read.
extension RecordTable {
  /// `query`'s window: the positions kept in order while the table is read once (a binary
  /// search per value that beats the window's last), the rest never sorted; only the values
  /// kept are copied.
  func select(_ query: ValueQuery<Value>) -> [(key: StoreKey, record: StoredRecord<Value>)] {
    withBuffers { keys, records in
      var window = QueryWindowBuilder(query, keys, records)
      forEach(matching: query, in: records) { window.offer($0) }
      return window.values()
    }
  }

  /// `query`'s window read as `earlier` (its window then) with the values under `changed`
  /// (every key set since) now as they are: what no longer matches leaves, what now matches
  /// takes its place in the order. Nil when that cannot tell: `earlier` was full and a value
  /// that was not in it (never read here) may now belong in it.
  func reselect(
    _ query: ValueQuery<Value>, after earlier: [(key: StoreKey, record: StoredRecord<Value>)],
    changed: Set<StoreKey>
  ) -> [(key: StoreKey, record: StoredRecord<Value>)]? {
    guard query.window != 0 else { return [] }
    var (keys, records) = ([StoreKey](), [StoredRecord<Value>]())
    for (key, record) in earlier where !changed.contains(key) {
      keys.append(key)
      records.append(record)
    }
    let unchanged = keys.count
    for key in changed {
      guard var record = self[key], withUnsafePointer(to: &record, query.matches) else { continue }
      keys.append(key)
      records.append(record)
    }
    // A full window's last value is where the values never read begin: each ranks after it.
    let full = query.window.map { earlier.count >= $0 } ?? false
    if full, let last = earlier.last {
      keys.append(last.key)
      records.append(last.record)
    }
    return keys.withUnsafeBufferPointer { keys in
      records.withUnsafeBufferPointer { records in
        var window = QueryWindowBuilder(query, keys, records)
        for position in 0..<unchanged { window.append(position) }
        let boundary = records.count - 1
        for position in unchanged..<(full ? boundary : records.count) { window.insert(position) }
        guard full else { return window.values() }
        // Full again, and no further than where the values never read begin: the values
        // that were in the window and did not change are all before it.
        guard window.isFull, let last = window.last,
          last < unchanged || window.precedes(last, boundary)
        else { return nil }
        return window.values()
      }
    }
  }

  /// How many values `query` matches (offset and limit aside).
  func count(_ query: ValueQuery<Value>) -> Int {
    withBuffers { _, records in
      var count = 0
      forEach(matching: query, in: records) { _ in count += 1 }
      return count
    }
  }
}

extension ValueQuery {
  /// How many values a window holds: `offset + limit`; nil without a limit (every match), and
  /// when the sum would overflow.
  var window: Int? {
    limit.map { offset.addingReportingOverflow($0) }.flatMap {
      $0.overflow ? nil : $0.partialValue
    }
  }
}

/// A query's window as it is built: positions into `keys` and `records`, in the query's order,
/// at most `query.window` of them.
struct QueryWindowBuilder<Value: Codable & Sendable> {
  let query: ValueQuery<Value>
  let keys: UnsafeBufferPointer<StoreKey>
  let records: UnsafeBufferPointer<StoredRecord<Value>>
  private let size: Int?
  private(set) var kept: [Int] = []
  /// Offered without a limit, in the table's order: sorted when the values are asked for.
  private var unsorted = false

  init(
    _ query: ValueQuery<Value>, _ keys: UnsafeBufferPointer<StoreKey>,
    _ records: UnsafeBufferPointer<StoredRecord<Value>>
  ) {
    (self.query, self.keys, self.records, size) = (query, keys, records, query.window)
  }

  var isFull: Bool { size.map { kept.count >= $0 } ?? false }
  var last: Int? { kept.last }

  /// Whether the value at `a` comes before the one at `b` in the query's order.
  @inline(__always)
  func precedes(_ a: Int, _ b: Int) -> Bool {
    guard let base = records.baseAddress else { return false }
    return query.precedes(base + a, keys[a], base + b, keys[b])
  }

  /// Takes the value at `position`, in a pass that offers every value: where it belongs in a
  /// window with a limit (a full window's last value makes way for one that comes before
  /// it); without a limit, sorted once at the end.
  @inline(__always)
  mutating func offer(_ position: Int) {
    guard size != nil else {
      kept.append(position)
      unsorted = true
      return
    }
    insert(position)
  }

  /// Takes the value at `position` where it belongs, when it does (a binary search).
  @inline(__always)
  mutating func insert(_ position: Int) {
    guard size != 0 else { return }
    if isFull {
      guard let last = kept.last, precedes(position, last) else { return }
      kept.removeLast()
    }
    var (low, high) = (0, kept.count)
    while low < high {
      let middle = (low + high) / 2
      if precedes(kept[middle], position) { low = middle + 1 } else { high = middle }
    }
    kept.insert(position, at: low)
  }

  /// Takes the value at `position` after the others: the caller knows it comes last.
  mutating func append(_ position: Int) {
    if !isFull { kept.append(position) }
  }

  /// The values kept, in order.
  mutating func values() -> [(key: StoreKey, record: StoredRecord<Value>)] {
    if unsorted {
      var sorted = kept
      sorted.sort { precedes($0, $1) }
      (kept, unsorted) = (sorted, false)
    }
    return kept.map { (key: keys[$0], record: records[$0]) }
  }
}
