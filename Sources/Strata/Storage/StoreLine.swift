import Foundation

/// A type the store writes one per line, which can read its own line without `JSONDecoder`'s
/// generic machinery (see ``JSONObject``). `read` returns nil for anything it does not read
/// exactly as `JSONDecoder` would — an unknown key, an odd number, a change kind it does not
/// handle — and the line is then decoded by `JSONDecoder`, the reference. The two agree on
/// every line a store writes: tests decode the same lines both ways.
protocol StoreLine: Decodable, Sendable {
  /// `decoder` decodes the app's values inside the line (dates as milliseconds since 1970).
  static func read(_ object: JSONObject, decoder: JSONDecoder) -> Self?
}

extension JSONObject {
  /// Milliseconds since 1970, as the store writes dates.
  fileprivate func date(_ key: StaticString) -> Date? {
    value(key)?.double.map { Date(timeIntervalSince1970: $0 / 1000) }
  }

  /// A string or nothing: nil when absent or null, `.none` (fail) when something else.
  fileprivate func optionalString(_ key: StaticString) -> String?? {
    guard let value = value(key), !value.isNull else { return .some(nil) }
    return value.string.map { .some($0) }
  }

  /// A record's key, read without a string of its own when it is a change's identity.
  func optionalKey(_ key: StaticString) -> StoreKey?? {
    guard let value = value(key), !value.isNull else { return .some(nil) }
    let text = value.bytes.dropFirst().dropLast()
    if value.bytes.first == UInt8(ascii: "\""),
      let id = UUIDText.parse(text, uppercaseOnly: true)
    {
      return .some(.uuid(id))
    }
    return value.string.map { .some(StoreKey($0)) }
  }

  fileprivate func optionalUUID(_ key: StaticString) -> UUID?? {
    guard let value = value(key), !value.isNull else { return .some(nil) }
    return value.uuid.map { .some($0) }
  }

  /// `true`, `false`, or false when absent.
  fileprivate func flag(_ key: StaticString) -> Bool? {
    guard let value = value(key) else { return false }
    return value.bool
  }

  fileprivate func status(_ key: StaticString) -> SyncStatus? {
    value(key)?.string.flatMap(SyncStatus.init(rawValue:))
  }

  /// The app's value under `key`: read from the line's scan where it can be read exactly as
  /// `decoder` would read it (``ScannedJSONDecoder``), else decoded by `decoder` on its own.
  fileprivate func decoded<T: Decodable>(
    _ type: T.Type, _ key: StaticString, _ decoder: JSONDecoder
  ) -> T? {
    guard let value = value(key) else { return nil }
    if let scanned = try? ScannedJSONDecoder.decode(type, from: value) { return scanned }
    return try? decoder.decode(type, from: Data(value.bytes))
  }
}

extension OutboxEntry: StoreLine {
  static func read(_ object: JSONObject, decoder: JSONDecoder) -> OutboxEntry? {
    guard
      object.hasOnly(
        "id", "kind", "payload", "createdAt", "status", "attempts", "message", "recordKey",
        "serverKey", "after", "base", "baseVersion", "conflict"),
      let id = object.value("id")?.uuid,
      let kind = object.value("kind")?.string,
      let payload = object.value("payload")?.string.flatMap({ Data(base64Encoded: $0) }),
      let createdAt = object.date("createdAt"), let status = object.status("status"),
      let attempts = object.value("attempts")?.int, let message = object.optionalString("message"),
      let recordKey = object.optionalKey("recordKey"),
      let serverKey = object.optionalString("serverKey"), let after = object.optionalUUID("after"),
      let base = object.optionalString("base"), base.map({ Data(base64Encoded: $0) }) != .some(nil),
      let baseVersion = object.optionalString("baseVersion")
    else { return nil }
    var entry = OutboxEntry(id: id, kind: kind, payload: payload, createdAt: createdAt)
    (entry.status, entry.attempts, entry.storeKey) = (status, attempts, recordKey)
    var rare = OutboxEntry.RareFields(
      message: message, after: after, serverKey: serverKey,
      base: base.flatMap { Data(base64Encoded: $0) }, baseVersion: baseVersion)
    if let conflict = object.value("conflict"), !conflict.isNull {
      // Rare (a change waiting for its user): the reference decoder reads it.
      guard let read = try? decoder.decode(ChangeConflict.self, from: Data(conflict.bytes)) else {
        return nil
      }
      rare.conflict = read
    }
    entry.rareFields = rare
    return entry
  }
}

extension StoredRecord: StoreLine {
  static func read(_ object: JSONObject, decoder: JSONDecoder) -> StoredRecord? {
    guard
      object.hasOnly(
        "value", "status", "updatedAt", "message", "deleted", "serverKey", "version",
        "localKey", "server")
    else { return nil }
    return fields(of: object, decoder: decoder)
  }

  /// The record's fields in `object`, which may hold others (a snapshot's line adds its key).
  static func fields(of object: JSONObject, decoder: JSONDecoder) -> StoredRecord? {
    guard let value = object.decoded(Value.self, "value", decoder),
      let status = object.status("status"), let updatedAt = object.date("updatedAt"),
      let message = object.optionalString("message"), let deleted = object.flag("deleted"),
      let serverKey = object.optionalString("serverKey"),
      let version = object.optionalString("version"),
      let legacyLocalKey = object.optionalString("localKey"),
      let server = object.optionalString("server"),
      server.map({ Data(base64Encoded: $0) }) != .some(nil)
    else { return nil }
    var record = StoredRecord(
      value: value, status: status, updatedAt: updatedAt, message: message, deleted: deleted,
      serverKey: serverKey, version: version,
      serverValue: server.flatMap { Data(base64Encoded: $0) })
    record.legacyLocalKey = legacyLocalKey
    return record
  }
}

extension StoreChange: StoreLine {
  /// The changes a reopen meets by the thousand — a change queued, a send's outcome — read
  /// here; the rest go to `JSONDecoder`.
  static func read(_ object: JSONObject, decoder: JSONDecoder) -> StoreChange? {
    guard object.count == 1 else { return nil }
    if let enqueue = object.value("enqueue")?.object {
      guard enqueue.hasOnly("entry", "record"), let entry = entry(enqueue, decoder),
        let record = record(enqueue, decoder)
      else { return nil }
      return .append(entry: entry, record: record)
    }
    if let settle = object.value("settle")?.object {
      guard settle.hasOnly("entry", "record", "formerKey"), let entry = entry(settle, decoder),
        let record = record(settle, decoder), let formerKey = settle.optionalString("formerKey")
      else { return nil }
      return .rewrite(entry: entry, record: record, formerKey: formerKey)
    }
    if let outcome = object.value("outcome")?.object {
      guard outcome.hasOnly("entry", "record", "next"), let entry = entry(outcome, decoder),
        let record = record(outcome, decoder),
        let next = outcome.value("next")?.object.flatMap({
          OutboxEntry.read($0, decoder: decoder)
        })
      else { return nil }
      return .outcome(entry: entry, record: record, next: next)
    }
    return nil
  }

  private static func entry(_ object: JSONObject, _ decoder: JSONDecoder) -> OutboxEntry? {
    object.value("entry")?.object.flatMap { OutboxEntry.read($0, decoder: decoder) }
  }

  /// The optional record: `.some(nil)` when absent or null, nil when unreadable.
  private static func record(_ object: JSONObject, _ decoder: JSONDecoder)
    -> StoredRecord<Value>??
  {
    guard let value = object.value("record"), !value.isNull else { return .some(nil) }
    return value.object.flatMap { StoredRecord.read($0, decoder: decoder) }.map { .some($0) }
  }
}
