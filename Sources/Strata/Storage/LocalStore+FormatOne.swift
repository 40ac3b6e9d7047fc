import Foundation

/// The upgrade from the first build's store: one JSON document, read while there is no
/// snapshot, folded into the first snapshot and then removed.
extension LocalStore {
  struct FormatOne: Decodable {
    struct Contents: Decodable {
      var records: [String: StoredRecord<Value>]
      var outbox: [OutboxEntry]
    }
    let version: Int
    let document: Contents
  }

  /// The store as the previous build kept it — one JSON document `{"version": 1, "document":
  /// {"records", "outbox"}}` at `<path>.json` — read while there is no snapshot, so changes it
  /// kept are still sent after an upgrade; the first compaction folds it in and removes it.
  static func formatOne(at path: String) -> StoreSnapshot<Value>? {
    guard let bytes = try? PrivateFile.read(path, limit: ByteLimits.fourGiB) else { return nil }
    let data = Data(bytes)
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .millisecondsSince1970
    guard let old = try? decoder.decode(FormatOne.self, from: data), old.version == 1 else {
      return nil
    }
    let outbox = old.document.outbox.map { entry in
      var entry = entry
      if old.document.records[entry.idempotencyKey] != nil {
        entry.recordKey = entry.idempotencyKey
      }
      return entry
    }
    return StoreSnapshot(
      generation: 0, records: RecordTable(old.document.records), outbox: outbox)
  }
}
