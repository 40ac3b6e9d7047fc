import Foundation

extension StoreSnapshot {
  /// A value's line in a format-4 snapshot: the record's fields and its key, flat (one JSON
  /// object less to decode per value than a wrapper would cost).
  struct KeyedRecord: Codable, StoreLine {
    var key: StoreKey
    var value: Value
    var status: SyncStatus
    var updatedAt: Date
    var message: String?
    /// Only when true (see ``StoredRecord/deleted``).
    var deleted: Bool?
    var serverKey: String?
    var version: String?
    /// The server's value under the device's change (``StoredRecord/serverValue``).
    var server: Data?
    /// Read from a store written before records kept their own key for life; never written.
    var localKey: String?

    init(_ key: StoreKey, _ record: StoredRecord<Value>) {
      (self.key, value, status) = (key, record.value, record.status)
      (updatedAt, message) = (record.updatedAt, record.message)
      (deleted, serverKey, version) = (
        record.deleted ? true : nil, record.serverKey, record.version
      )
      (localKey, server) = (record.legacyLocalKey, record.serverValue)
    }

    var record: StoredRecord<Value> {
      var record = StoredRecord(
        value: value, status: status, updatedAt: updatedAt, message: message,
        deleted: deleted ?? false, serverKey: serverKey, version: version, serverValue: server)
      record.legacyLocalKey = localKey
      return record
    }

    static func read(_ object: JSONObject, decoder: JSONDecoder) -> KeyedRecord? {
      guard
        object.hasOnly(
          "key", "value", "status", "updatedAt", "message", "deleted", "serverKey",
          "version", "localKey", "server"),
        let key = object.optionalKey("key").flatMap({ $0 }),
        let record = StoredRecord<Value>.fields(of: object, decoder: decoder)
      else { return nil }
      return KeyedRecord(key, record)
    }
  }
}
