import Foundation

/// One change to a store, as its journal records it. The same changes applied in the same order
/// always give the same state: that is why a replayed journal equals the process that wrote it.
enum StoreChange<Value: Codable & Sendable>: Codable, Sendable {
  case put(key: String, record: StoredRecord<Value>)
  /// A fresh page from the server: every `synced` value is replaced by `values`.
  case replaceSynced(values: [String: Value], at: Date)
  /// A change queued, with the value shown for it (both or neither: one record).
  case enqueue(entry: OutboxEntry, record: StoredRecord<Value>?)
  /// A send's outcome: the entry as it now stands and the value under its record key (the
  /// value shown under `formerKey` until then is dropped when the answer has another key).
  case settle(entry: OutboxEntry, record: StoredRecord<Value>?, formerKey: String?)
  /// Refused changes put back in the queue.
  case requeue(ids: [UUID], at: Date)
  /// A refused change dropped for good, with the value shown for it unless that is synced.
  case discard(id: UUID)
}

/// What a store holds — values by key, the outbox in order — and how a change applies.
/// Every change applies in time independent of the history (an index finds an entry).
struct StoreState<Value: Codable & Sendable> {
  var records: [String: StoredRecord<Value>] = [:]
  private(set) var outbox: [OutboxEntry] = []
  private var positions: [UUID: Int] = [:]

  init(records: [String: StoredRecord<Value>] = [:], outbox: [OutboxEntry] = []) {
    self.records = records
    self.outbox = outbox
    positions = Dictionary(outbox.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { $1 })
  }

  func entry(_ id: UUID) -> OutboxEntry? { positions[id].map { outbox[$0] } }

  mutating func apply(_ change: StoreChange<Value>) {
    switch change {
    case .put(let key, let record):
      records[key] = record
    case .replaceSynced(let values, let stamp):
      records = records.filter { $0.value.status != .synced }
      for (key, value) in values where records[key] == nil {
        records[key] = StoredRecord(value: value, status: .synced, updatedAt: stamp)
      }
    case .enqueue(let entry, let record):
      positions[entry.id] = outbox.count
      outbox.append(entry)
      if let key = entry.recordKey, let record { records[key] = record }
    case .settle(let entry, let record, let formerKey):
      guard let position = positions[entry.id] else { return }
      outbox[position] = entry
      if let formerKey, formerKey != entry.recordKey { records[formerKey] = nil }
      if let key = entry.recordKey, let record { records[key] = record }
    case .discard(let id):
      guard let position = positions[id] else { return }
      let entry = outbox.remove(at: position)
      if let key = entry.recordKey, records[key]?.status != .synced { records[key] = nil }
      positions = Dictionary(outbox.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { $1 })
    case .requeue(let ids, let stamp):
      for id in ids {
        guard let position = positions[id], outbox[position].status == .failed else { continue }
        outbox[position].status = .pending
        outbox[position].message = nil
        if let key = outbox[position].recordKey, var record = records[key] {
          record.status = .pending
          record.message = nil
          record.updatedAt = stamp
          records[key] = record
        }
      }
    }
  }

  /// Forgets history: all but the newest `kept` synced changes, and synced values beyond the
  /// newest `records` or last changed before `since`. Pending and failed changes, and the
  /// values shown for them, always stay: the store follows what is waiting, not the past.
  mutating func dropSettled(keeping kept: Int, records keptRecords: Int, since: Date) {
    var synced = outbox.lazy.filter { $0.status == .synced }.count
    if synced > kept {
      outbox.removeAll { entry in
        guard entry.status == .synced, synced > kept else { return false }
        synced -= 1
        return true
      }
      positions = Dictionary(outbox.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { $1 })
    }
    let waiting = Set(outbox.lazy.filter { $0.status != .synced }.compactMap(\.recordKey))
    let history = records.filter { $0.value.status == .synced && !waiting.contains($0.key) }
      .sorted {
        $0.value.updatedAt > $1.value.updatedAt
          || ($0.value.updatedAt == $1.value.updatedAt && $0.key < $1.key)
      }
    for (rank, old) in history.enumerated() where rank >= keptRecords || old.value.updatedAt < since
    {
      records[old.key] = nil
    }
  }
}
