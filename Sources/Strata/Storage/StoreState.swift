import Foundation

/// One change to a store, as its journal records it. The same changes applied in the same order
/// always give the same state: that is why a replayed journal equals the process that wrote it.
enum StoreChange<Value: Codable & Sendable>: Codable, Sendable {
  case put(key: String, record: StoredRecord<Value>)
  /// A fresh page from the server: every `synced` value is replaced by `values`.
  case replaceSynced(values: [String: Value], at: Date)
  /// A change appended, with the value shown for it (both or neither: one record).
  case append(entry: OutboxEntry, record: StoredRecord<Value>?)
  /// An entry rewritten in place — a send's outcome, a change folded into one not yet sent, a
  /// conflict resolved — and the value under its record key. A synced deletion drops its
  /// value. `formerKey` is what earlier builds wrote when they moved a value to the server's
  /// key (the value shown under it dropped, the followers moved); this build writes nil, and
  /// a value keeps its key for life.
  case rewrite(entry: OutboxEntry, record: StoredRecord<Value>?, formerKey: String?)
  /// A send's outcome (as `rewrite`) and, in the same record, the attempt of the change the
  /// sync sends next: one write per change, each attempt still on disk before its send.
  case outcome(entry: OutboxEntry, record: StoredRecord<Value>?, next: OutboxEntry)
  /// Refused changes put back in the queue.
  case requeue(ids: [UUID], at: Date)
  /// The server's values merged under the device's changes; after a `complete` listing, what
  /// it no longer lists goes, as do the values under `removed` (what a listing of changes
  /// said it deleted); `cursor`, when given, is where the next listing of changes starts
  /// (``StoreState/merge(_:complete:removing:cursor:at:)``).
  case merge(
    values: [String: Value], complete: Bool, at: Date, removed: [String]? = nil,
    cursor: String? = nil)
  /// A synced value the server no longer has (deleted there): dropped.
  case forget(key: String)
  /// A change discarded — refused and given up, or dropped before it was sent — with the
  /// value shown for it unless that is synced, and the changes that follow it
  /// (``OutboxEntry/after``).
  case discard(id: UUID)

  /// The names in the journal's lines: those of the first stores, which every store since
  /// reads (`enqueue` is an append, `settle` a rewrite).
  enum CodingKeys: String, CodingKey {
    case put, replaceSynced, requeue, discard, forget, outcome, merge
    case append = "enqueue"
    case rewrite = "settle"
  }
}

/// What a store holds — values by key, the outbox in order — and how a change applies.
/// Every change applies in time independent of the history (an index finds an entry).
struct StoreState<Value: Codable & Sendable> {
  var records = RecordTable<Value>()
  /// When the server last listed every value (a complete pull); nil when it never has.
  var refreshedAt: Date?
  /// Where the server's next listing of changes starts (``RemoteChanges/cursor``); nil when
  /// none was read, or the API lists no changes.
  var cursor: String?
  private(set) var outbox: [OutboxEntry] = []
  /// Where each change is in ``outbox``, built the first time a change is looked up by its
  /// identity (a sync, a discard): a command that only reads never pays for it.
  private var positions: [UUID: Int]?
  /// Whether any change follows another (``OutboxEntry/after``): until one does, a rewrite or
  /// a discard has no followers to look for, and costs what it did before they existed.
  private var hasFollowers = false

  init(records: RecordTable<Value> = RecordTable(), outbox: [OutboxEntry] = []) {
    self.records = records
    self.outbox = outbox
    hasFollowers = outbox.contains { $0.after != nil }
    for (key, record) in records.stored where record.legacyLocalKey != nil {
      adoptLegacy(key.string)
    }
  }

  /// The changes not yet synced that follow the one with identity `id`, directly or not,
  /// in queue order.
  func followers(of id: UUID) -> [OutboxEntry] {
    guard hasFollowers else { return [] }
    var chain: Set<UUID> = [id]
    var found: [OutboxEntry] = []
    for entry in outbox where entry.status != .synced {
      guard let after = entry.after, chain.contains(after) else { continue }
      chain.insert(entry.id)
      found.append(entry)
    }
    return found
  }

  /// Changes each change to the value under `key`, in place (none moves: the index holds).
  mutating func updateChanges(to key: StoreKey, _ body: (inout OutboxEntry) -> Void) {
    for index in outbox.indices where outbox[index].storeKey == key { body(&outbox[index]) }
  }

  /// The change with identity `id` (a search when no index is built yet).
  func entry(_ id: UUID) -> OutboxEntry? {
    guard let positions else { return outbox.first { $0.id == id } }
    return positions[id].map { outbox[$0] }
  }

  private mutating func position(of id: UUID) -> Int? {
    if positions == nil {
      var index = [UUID: Int](minimumCapacity: outbox.capacity)
      for (position, entry) in outbox.enumerated() { index[entry.id] = position }
      positions = index
    }
    return positions?[id]
  }

  /// Room for `changes` more changes, each at most one entry and one value: grown once
  /// ahead of a batch, a reopen does not hold a table's old and new storage at once for each
  /// doubling.
  mutating func reserve(_ changes: Int) {
    // A dictionary grows to a power of two; an array's reserveCapacity would grow to exactly
    // the count asked, and copy the outbox again for every record appended one at a time.
    records.reserveCapacity(records.count + changes)
    if let count = positions?.count { positions?.reserveCapacity(count + changes) }
    let needed = outbox.count + changes
    if needed > outbox.capacity { outbox.reserveCapacity(max(needed, 2 * outbox.capacity)) }
  }

  mutating func apply(_ change: StoreChange<Value>) {
    switch change {
    case .put(let key, let record):
      records[key] = record
      adoptLegacy(key)
    case .replaceSynced(let values, let stamp):
      replaceSynced(values, at: stamp)
    case .merge(let values, let complete, let stamp, let removed, let cursor):
      merge(values, complete: complete, removing: removed ?? [], cursor: cursor, at: stamp)
    case .append(let entry, let record):
      positions?[entry.id] = outbox.count
      outbox.append(entry)
      hasFollowers = hasFollowers || entry.after != nil
      if let key = entry.storeKey, let record {
        records[key] = record
        if record.legacyLocalKey != nil { adoptLegacy(key.string) }
      }
    case .rewrite(let entry, let record, let formerKey):
      settle(entry, record, formerKey: formerKey)
      if let key = entry.storeKey, records[key]?.legacyLocalKey != nil { adoptLegacy(key.string) }
    case .discard(let id):
      discard(id)
    case .outcome(let entry, let record, let next):
      settle(entry, record, formerKey: nil)
      settle(next, nil, formerKey: nil)
    case .forget(let key):
      if records[key]?.status == .synced { records[key] = nil }
    case .requeue(let ids, let stamp):
      requeue(ids, at: stamp)
    }
  }

  /// Drops the change `id` and the changes that follow it; each value shown for one of them
  /// goes back to the server's value, unless another change to it still waits.
  private mutating func discard(_ id: UUID) {
    guard let position = position(of: id) else { return }
    let dropped = [outbox[position]] + followers(of: id)
    let ids = Set(dropped.map(\.id))
    outbox.removeAll { ids.contains($0.id) }
    for key in Set(dropped.compactMap(\.storeKey)) where records[key]?.status != .synced {
      // Another change to it still waits: it goes on showing what that one made of it.
      guard !outbox.contains(where: { $0.storeKey == key && $0.status != .synced }) else {
        continue
      }
      records[key] = records[key].flatMap(Self.serverSide)
    }
    positions = nil  // the entries after it moved
  }

  /// Puts the failed changes among `ids` back in the queue, their values pending again.
  private mutating func requeue(_ ids: [UUID], at stamp: Date) {
    for id in ids {
      guard let position = position(of: id), outbox[position].status == .failed else {
        continue
      }
      outbox[position].status = .pending
      outbox[position].message = nil
      if let key = outbox[position].storeKey, var record = records[key] {
        record.status = .pending
        record.message = nil
        record.updatedAt = stamp
        records[key] = record
      }
    }
  }

  /// A page from the server, keyed by the server's keys. Every other synced value goes, but a
  /// value made here that the server numbered (``StoredRecord/serverKey``) takes the page's
  /// version under its own key when it is the only one carrying that key; one waiting to go
  /// keeps the device's change; two carrying one server key both stay as they are (the page
  /// cannot say which one it shows).
  private mutating func replaceSynced(_ values: [String: Value], at stamp: Date) {
    var carried: [String: [String]] = [:]
    for (key, record) in records.stored {
      if let server = record.serverKey { carried[server, default: []].append(key.string) }
    }
    records.removeAll { record in
      record.status == .synced
        && !(record.serverKey.map { values[$0] != nil || carried[$0, default: []].count > 1 }
          ?? false)
    }
    for (key, value) in values where records[key] == nil {
      let carriers = carried[key, default: []]
      guard carriers.isEmpty else {
        if carriers.count == 1, var record = records[carriers[0]], record.status == .synced {
          (record.value, record.updatedAt, record.version) = (value, stamp, nil)
          records[carriers[0]] = record
        }
        continue
      }
      records[key] = StoredRecord(value: value, status: .synced, updatedAt: stamp)
    }
  }

  private mutating func settle(
    _ entry: OutboxEntry, _ record: StoredRecord<Value>?, formerKey: String?
  ) {
    guard let position = position(of: entry.id) else { return }
    outbox[position] = entry
    // One pass over the outbox, and none while no change follows another.
    let following = followers(of: entry.id)
    if let formerKey, let key = entry.recordKey, formerKey != key {
      // Written by a store that moved a value to the server's key (since, a value keeps its
      // own key for life): replayed as it was, then moved back by `adoptLegacy`.
      records[formerKey] = nil
      for follower in following where follower.recordKey == formerKey {
        if let at = self.position(of: follower.id) { outbox[at].recordKey = key }
      }
    }
    guard let key = entry.storeKey else { return }
    if let record { records[key] = record }
    if entry.status == .synced, records[key]?.deleted == true, following.isEmpty {
      records[key] = nil
    }
  }

  /// What `record` goes back to when every change on top of it is dropped: the server's value
  /// as last seen, synced; nil when the server never had it (made here).
  private static func serverSide(_ record: StoredRecord<Value>) -> StoredRecord<Value>? {
    guard let json = record.serverValue,
      let value = try? StoreJSON.decoder().decode(Value.self, from: json)
    else { return nil }
    return StoredRecord(
      value: value, status: .synced, updatedAt: record.updatedAt, serverKey: record.serverKey,
      version: record.version)
  }

  /// Moves a record written before values kept their own key for life — kept under the
  /// server's key, its own beside it (`localKey`) — back under its own key, the server's
  /// becoming its ``StoredRecord/serverKey``; the changes to it follow. Old stores are thus
  /// read in place, and the next compaction writes them in the new form.
  private mutating func adoptLegacy(_ key: String) {
    guard var record = records[key], let own = record.legacyLocalKey else { return }
    record.legacyLocalKey = nil
    guard own != key else {
      records[key] = record
      return
    }
    record.serverKey = key
    records[key] = nil
    records[own] = record
    let (legacy, ownKey) = (StoreKey(key), StoreKey(own))
    for position in outbox.indices where outbox[position].storeKey == legacy {
      outbox[position].storeKey = ownKey
      if outbox[position].serverKey == nil { outbox[position].serverKey = key }
    }
  }

  /// The keys of the values `key` names: the value kept under it, and every value the server
  /// gave that key (``StoredRecord/serverKey``), in key order. More than one: `key` is the
  /// server's id of several things made here (a server that answers every creation with one id).
  func keys(matching key: String) -> [String] {
    let own = StoreKey(key)
    var found = records.stored.compactMap { stored, record in
      record.serverKey == key && stored != own ? stored.string : nil
    }
    if records[key] != nil { found.append(key) }
    return found.sorted()
  }

  /// Forgets history: all but the newest `kept` synced changes, and synced values beyond the
  /// newest `records` or last changed before `since` — never one the server's last complete
  /// listing showed (or a page showed since). Pending and failed changes, and the
  /// values shown for them, always stay: the store follows what is waiting, not the past.
  mutating func dropSettled(keeping kept: Int, records keptRecords: Int, since: Date) {
    var synced = outbox.lazy.filter { $0.status == .synced }.count
    if synced > kept {
      outbox.removeAll { entry in
        guard entry.status == .synced, synced > kept else { return false }
        synced -= 1
        return true
      }
      positions = nil
    }
    let waiting = Set(outbox.lazy.filter { $0.status != .synced }.compactMap(\.storeKey))
    // What the server's last complete listing showed is the collection, not history: kept.
    let listed = refreshedAt ?? .distantFuture
    let history = records.stored.filter {
      $1.status == .synced && !waiting.contains($0) && $1.updatedAt < listed
    }
    .sorted {
      $0.1.updatedAt > $1.1.updatedAt
        || ($0.1.updatedAt == $1.1.updatedAt && $0.0.string < $1.0.string)
    }
    for (rank, old) in history.enumerated() where rank >= keptRecords || old.1.updatedAt < since {
      records[old.0] = nil
    }
  }
}
