/// A store's values by key, in the form a long queue can afford: the keys and the records in
/// two arrays, and a hash index of 4-byte positions into them (open addressing, linear
/// probing, at most half full). A `[String: StoredRecord]` of 101,000 values — 262,144
/// buckets of a 16-byte key and a 48-byte record, and an 80-byte string for each key made on
/// the device — took 25 MB; this takes the arrays' 7 MB and a 1 MB index.
///
/// Iterating gives the values in no promised order (as a dictionary): a removal moves the
/// last value into the gap.
struct RecordTable<Value: Codable & Sendable>: Sequence {
  private var keys: [StoreKey] = []
  private var records: [StoredRecord<Value>] = []
  /// Positions into `keys` and `records`, -1 where empty; empty itself, or a power of two
  /// at least twice `count` long, so a probe always ends at an empty slot.
  private var slots: [Int32] = []
  /// The indexes kept (``ValueIndex``): for each, the keys of the values by the field's text.
  private var indexed: [(index: ValueIndex<Value>, buckets: [String: Set<StoreKey>])] = []
  /// The keys set since ``takeWritten()`` last took them; nil once more than
  /// `trackedWrites` were, or the table was rebuilt: which values changed is then unknown.
  private var written: Set<StoreKey>? = []
  private static var trackedWrites: Int { 256 }

  init() {}

  init(_ values: [String: StoredRecord<Value>]) {
    reserveCapacity(values.count)
    for (key, record) in values { self[key] = record }
  }

  var count: Int { keys.count }

  /// The records, in the order iteration gives them.
  var values: [StoredRecord<Value>] { records }

  /// Each key as held, beside its record: what a pass over every value uses, as it spells no
  /// key out as a string.
  var stored: Zip2Sequence<[StoreKey], [StoredRecord<Value>]> { zip(keys, records) }

  subscript(key: String) -> StoredRecord<Value>? {
    get { self[StoreKey(key)] }
    set { self[StoreKey(key)] = newValue }
  }

  subscript(key: StoreKey) -> StoredRecord<Value>? {
    get {
      let found = find(key)
      return found.present ? records[Int(slots[found.slot])] : nil
    }
    set {
      if written?.count ?? 0 >= Self.trackedWrites { written = nil }
      written?.insert(key)
      let found = find(key)
      switch (found.present, newValue) {
      case (true, let record?):
        let position = Int(slots[found.slot])
        reindex(key, from: records[position], to: record)
        records[position] = record
      case (true, nil):
        reindex(key, from: records[Int(slots[found.slot])], to: nil)
        remove(at: found.slot)
      case (false, let record?):
        guard (keys.count + 1) * 2 <= slots.count else {
          reserveCapacity(keys.count + 1)
          self[key] = record
          return
        }
        reindex(key, from: nil, to: record)
        slots[found.slot] = Int32(keys.count)
        keys.append(key)
        records.append(record)
      case (false, nil):
        break
      }
    }
  }

  /// Room for `capacity` values without another rebuild of the index.
  mutating func reserveCapacity(_ capacity: Int) {
    keys.reserveCapacity(capacity)
    records.reserveCapacity(capacity)
    var size = 8
    while size < 2 * capacity { size *= 2 }
    guard size > slots.count else { return }
    rebuild(size: size)
  }

  /// The keys and the records as buffers (each value at the same position in both), for a
  /// pass that reads the values in place: a pass over 100,000 copies none of them.
  @inline(__always)
  func withBuffers<T>(
    _ body: (UnsafeBufferPointer<StoreKey>, UnsafeBufferPointer<StoredRecord<Value>>) -> T
  ) -> T {
    keys.withUnsafeBufferPointer { keys in
      records.withUnsafeBufferPointer { records in body(keys, records) }
    }
  }

  /// Calls `body` with the position in `records` (this table's, from ``withBuffers(_:)``) of
  /// each value `query` matches, in the table's order. Inlined into its callers, so the loop
  /// asks for its generic types' metadata once rather than once per value.
  @inline(__always)
  func forEach(
    matching query: ValueQuery<Value>, in records: UnsafeBufferPointer<StoredRecord<Value>>,
    _ body: (Int) -> Void
  ) {
    guard let first = records.baseAddress else { return }
    if let lookup = query.lookup,
      let kept = indexed.first(where: { $0.index.name == lookup.index.name })
    {
      for key in kept.buckets[lookup.key] ?? [] {
        let found = find(key)
        guard found.present else { continue }
        let position = Int(slots[found.slot])
        if query.matches(first + position) { body(position) }
      }
      return
    }
    for position in records.indices where query.matches(first + position) { body(position) }
  }

  /// Keeps only the values for which `drop` is false.
  mutating func removeAll(where drop: (StoredRecord<Value>) throws -> Bool) rethrows {
    var kept = RecordTable()
    kept.reserveCapacity(count)
    for (key, record) in zip(keys, records) where try !drop(record) {
      kept.append(key, record)
    }
    kept.keep(indexed.map(\.index))
    kept.written = nil
    self = kept
  }

  /// The keys of the values set since this was last asked (nil: unknown, as too many were or
  /// the table was rebuilt), and from now on none.
  mutating func takeWritten() -> Set<StoreKey>? {
    defer { written = [] }
    return written
  }

  /// From now on which values changed is unknown, until ``takeWritten()`` is next asked: the
  /// table was filled from the files.
  mutating func forgetWritten() { written = nil }

  /// Keeps `indexes` from now on (built over the values there are): a query through one of
  /// them reads only the values it names.
  mutating func keep(_ indexes: [ValueIndex<Value>]) {
    indexed = indexes.map { index in
      var buckets: [String: Set<StoreKey>] = [:]
      for (key, record) in zip(keys, records) {
        buckets[index.key(record.value), default: []].insert(key)
      }
      return (index, buckets)
    }
  }

  /// Moves `key` from the buckets of `old` to those of `new` in every index kept.
  private mutating func reindex(
    _ key: StoreKey, from old: StoredRecord<Value>?, to new: StoredRecord<Value>?
  ) {
    for position in indexed.indices {
      let index = indexed[position].index
      let (was, now) = (old.map { index.key($0.value) }, new.map { index.key($0.value) })
      guard was != now else { continue }
      if let was {
        indexed[position].buckets[was]?.remove(key)
        if indexed[position].buckets[was]?.isEmpty == true {
          indexed[position].buckets[was] = nil
        }
      }
      if let now { indexed[position].buckets[now, default: []].insert(key) }
    }
  }

  func makeIterator() -> some IteratorProtocol<(key: String, value: StoredRecord<Value>)> {
    zip(keys, records).lazy.map { (key: $0.string, value: $1) }.makeIterator()
  }

  /// Appends a value under a key not in the table (its caller knows).
  private mutating func append(_ key: StoreKey, _ record: StoredRecord<Value>) {
    slots[find(key).slot] = Int32(keys.count)
    keys.append(key)
    records.append(record)
  }

  /// The slot that holds `key`, or the empty one where it would go.
  private func find(_ key: StoreKey) -> (slot: Int, present: Bool) {
    guard !slots.isEmpty else { return (0, false) }
    let mask = slots.count - 1
    var slot = key.hashValue & mask
    while true {
      let position = slots[slot]
      if position < 0 { return (slot, false) }
      if keys[Int(position)] == key { return (slot, true) }
      slot = (slot + 1) & mask
    }
  }

  private mutating func rebuild(size: Int) {
    slots = [Int32](repeating: -1, count: size)
    let mask = size - 1
    for (position, key) in keys.enumerated() {
      var slot = key.hashValue & mask
      while slots[slot] >= 0 { slot = (slot + 1) & mask }
      slots[slot] = Int32(position)
    }
  }

  /// Removes the value in `slot`: the last value moves into its place in the arrays, and the
  /// probe chain closes over the emptied slot (backward shift: no tombstones to skip later).
  private mutating func remove(at slot: Int) {
    let position = Int(slots[slot])
    let last = keys.count - 1
    if position != last {
      slots[find(keys[last]).slot] = Int32(position)
      keys.swapAt(position, last)
      records.swapAt(position, last)
    }
    keys.removeLast()
    records.removeLast()
    let mask = slots.count - 1
    var hole = slot
    var next = (hole + 1) & mask
    while slots[next] >= 0 {
      let home = keys[Int(slots[next])].hashValue & mask
      // The value in `next` may fill the hole when the hole lies between its home and it.
      if (next - home) & mask >= (next - hole) & mask {
        slots[hole] = slots[next]
        hole = next
      }
      next = (next + 1) & mask
    }
    slots[hole] = -1
  }
}

extension RecordTable: Codable {
  init(from decoder: any Decoder) throws {
    self.init(try [String: StoredRecord<Value>](from: decoder))
  }

  func encode(to encoder: any Encoder) throws {
    try [String: StoredRecord<Value>](uniqueKeysWithValues: map { ($0.key, $0.value) })
      .encode(to: encoder)
  }
}
