import Foundation

/// A pull: the server's values merged under the device's changes, and — after a complete
/// listing — what the server no longer lists taken out.
extension StoreState {
  /// What a merge came to, for its caller's summary.
  struct MergeCount: Equatable {
    var removed = 0
    var conflicted = 0
  }

  /// Each value of `values` (by the server's keys) where the device shows it: a synced value
  /// takes the server's; one with a change on top keeps the change, the server's value kept
  /// under it (what a discard goes back to). When `complete`, every value the server had and
  /// no longer lists goes, as do those under `removed` (deleted there, a listing of changes
  /// said) — a synced one dropped, one whose deletion waits counted as done, and one with any
  /// other change on top conflicted (the server deleted what the device changed:
  /// ``ConflictResolution/theirs`` lets it go, ``ConflictResolution/mine`` sends the change
  /// again). What was made here and never numbered is not the server's to list. A `cursor`
  /// is kept for the next listing of changes.
  mutating func merge(
    _ values: [String: Value], complete: Bool, removing removed: [String] = [],
    cursor: String? = nil, at stamp: Date
  ) {
    let carried = carriers()
    for (key, value) in values {
      let carriers = records[key] != nil ? [StoreKey(key)] : carried[key, default: []]
      guard carriers.count == 1, var record = records[carriers[0]] else {
        // Unknown here: kept as the server has it. Two carriers: the listing cannot say
        // which one it shows, so both stay as they are.
        if carriers.isEmpty {
          records[key] = StoredRecord(value: value, status: .synced, updatedAt: stamp)
        }
        continue
      }
      if record.status == .synced {
        (record.value, record.updatedAt, record.version) = (value, stamp, nil)
      } else {
        record.serverValue = try? StoreJSON.encoder().encode(value)
      }
      records[carriers[0]] = record
    }
    if let cursor { self.cursor = cursor }
    if complete { refreshedAt = stamp }
    for (key, record) in gone(from: values, complete: complete, removed, carried) {
      if record.status == .synced {
        records[key] = nil
      } else if record.deleted {
        settleGone(key)
      } else {
        conflictGone(key, record, at: stamp)
      }
    }
  }

  /// What a merge of `values` would take out, counted before it is merged.
  func mergeCount(_ values: [String: Value], complete: Bool, removing removed: [String] = [])
    -> MergeCount
  {
    var count = MergeCount()
    for (_, record) in gone(from: values, complete: complete, removed, carriers()) {
      if record.status == .synced || record.deleted {
        count.removed += 1
      } else {
        count.conflicted += 1
      }
    }
    return count
  }

  /// The keys of the values made here that the server numbered, by the server's key.
  private func carriers() -> [String: [StoreKey]] {
    var carried: [String: [StoreKey]] = [:]
    for (key, record) in records.stored {
      if let server = record.serverKey { carried[server, default: []].append(key) }
    }
    return carried
  }

  /// The values the server had (read from it, numbered by it, or with its value kept under a
  /// change) that it deleted, under their own or their server's key: those under `removed`,
  /// and after a `complete` listing of `values` every one it does not show.
  private func gone(
    from values: [String: Value], complete: Bool, _ removed: [String],
    _ carried: [String: [StoreKey]]
  ) -> [(StoreKey, StoredRecord<Value>)] {
    let theServers = { (record: StoredRecord<Value>) in
      record.status == .synced || record.serverKey != nil || record.serverValue != nil
    }
    var gone: [(StoreKey, StoredRecord<Value>)] = []
    var named = Set<StoreKey>()
    for key in removed where values[key] == nil {
      let keys = records[key] != nil ? [StoreKey(key)] : carried[key, default: []]
      for key in keys where named.insert(key).inserted {
        if let record = records[key], theServers(record) { gone.append((key, record)) }
      }
    }
    guard complete else { return gone }
    var listed = named
    for key in values.keys {
      listed.insert(StoreKey(key))
      listed.formUnion(carried[key, default: []])
    }
    return gone
      + records.stored.filter { key, record in !listed.contains(key) && theServers(record) }
  }

  static var deletedOnServer: String { "deleted on the server since this change was made" }

  /// A deletion of something the server no longer has: done, as a 404 to it would be.
  private mutating func settleGone(_ key: StoreKey) {
    updateChanges(to: key) { change in
      guard change.status != .synced else { return }
      (change.status, change.message) = (.synced, Self.deletedOnServer)
    }
    records[key] = nil
  }

  /// A change to something the server deleted: each of its changes waiting to go conflicted,
  /// with no value of theirs (the server has none).
  private mutating func conflictGone(_ key: StoreKey, _ record: StoredRecord<Value>, at stamp: Date)
  {
    updateChanges(to: key) { change in
      guard change.status == .pending || change.status == .failed else { return }
      (change.status, change.message) = (.conflicted, Self.deletedOnServer)
      change.conflict = ChangeConflict(encoded: nil, version: nil, fields: [])
    }
    var shown = record
    (shown.status, shown.message, shown.updatedAt) = (.conflicted, Self.deletedOnServer, stamp)
    records[key] = shown
  }
}
