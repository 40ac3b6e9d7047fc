import Foundation

/// Where a locally kept value or change stands with the server.
public enum SyncStatus: String, Codable, Sendable, CaseIterable {
  /// The server has it as shown.
  case synced
  /// Made here, not yet accepted by the server (it will be sent when it can).
  case pending
  /// The server refused it; ``StoredRecord/message`` says why. It is not sent again.
  case failed
  /// The server's value changed since the change was made, on a field the change sets too
  /// (``ChangeConflict``): kept, not sent, until resolved (``LocalStore/resolve(_:keeping:)``).
  case conflicted
}

/// A value kept locally, with where it stands with the server and when it last changed.
public struct StoredRecord<Value: Codable & Sendable>: Codable, Sendable {
  /// What the app shows: the user's own change while it is `pending`, the server's answer
  /// once `synced`.
  public var value: Value
  /// When it was last written here.
  public var updatedAt: Date
  /// The state of the newest change to it (a `failed` record keeps the refused value).
  // Declared after the 8-byte fields, beside `deleted`: the two one-byte fields share a word,
  // and a record of a 24-byte value takes 48 bytes rather than 56 in the store's table.
  public var status: SyncStatus
  /// The server's refusal, for `failed`.
  public var message: String? {
    get { rare.fields.message }
    set { rare.fields.message = newValue }
  }
  /// Deleted on this device: going (`pending`), or the deletion refused (`failed`). Once the
  /// server has deleted it, the record is gone.
  public var deleted: Bool
  /// The key the server's id gives it, when that is not the key it is kept under: something
  /// made on this device keeps its own key for life, and the server's (`post-151`) is only an
  /// attribute — never assumed unique, since some servers answer every creation with one id.
  /// Nil for what was read from the server (its key is the server's) or not yet numbered.
  public var serverKey: String? {
    get { rare.fields.serverKey }
    set { rare.fields.serverKey = newValue }
  }
  /// The server's validator of the value as it last gave it (an `ETag`), when it gave one: a
  /// change made to it is sent with `If-Match` on it.
  public var version: String? {
    get { rare.fields.version }
    set { rare.fields.version = newValue }
  }
  /// The server's value as last seen (JSON, as the store encodes values) while the device has
  /// a change on top of it (`pending`, `failed`, `conflicted`): what the value goes back to when
  /// the change is dropped. Nil for a value the server has as shown (`synced`) and for one made
  /// here that the server never had.
  package var serverValue: Data? {
    get { rare.fields.server }
    set { rare.fields.server = newValue }
  }
  /// The `localKey` of a store written before records kept their own key for life (the record
  /// was then kept under the server's key): read, never written; the store moves the record
  /// back under it when it reads one.
  var legacyLocalKey: String? {
    get { rare.fields.legacyLocalKey }
    set { rare.fields.legacyLocalKey = newValue }
  }
  /// What only some values carry, kept apart: most records of a long queue are values made
  /// here, not yet numbered and never refused, and pay one pointer for these, not 64 bytes.
  private var rare = OutOfLine<RecordRareFields>()

  /// A record (what a store writes; tests build their own).
  package init(
    value: Value, status: SyncStatus, updatedAt: Date, message: String? = nil,
    deleted: Bool = false, serverKey: String? = nil, version: String? = nil,
    serverValue: Data? = nil
  ) {
    (self.value, self.status, self.updatedAt, self.deleted) = (value, status, updatedAt, deleted)
    rare = OutOfLine(
      RecordRareFields(
        message: message, serverKey: serverKey, version: version, server: serverValue))
  }

  private enum CodingKeys: String, CodingKey {
    case value, status, updatedAt, message, deleted, serverKey, version, localKey, server
  }

  public init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      value: try fields.decode(Value.self, forKey: .value),
      status: try fields.decode(SyncStatus.self, forKey: .status),
      updatedAt: try fields.decode(Date.self, forKey: .updatedAt),
      message: try fields.decodeIfPresent(String.self, forKey: .message),
      deleted: try fields.decodeIfPresent(Bool.self, forKey: .deleted) ?? false,
      serverKey: try fields.decodeIfPresent(String.self, forKey: .serverKey),
      version: try fields.decodeIfPresent(String.self, forKey: .version),
      serverValue: try fields.decodeIfPresent(Data.self, forKey: .server))
    legacyLocalKey = try fields.decodeIfPresent(String.self, forKey: .localKey)
  }

  // `deleted` only when true: a line costs nothing for what almost no record is.
  public func encode(to encoder: any Encoder) throws {
    var fields = encoder.container(keyedBy: CodingKeys.self)
    try fields.encode(value, forKey: .value)
    try fields.encode(status, forKey: .status)
    try fields.encode(updatedAt, forKey: .updatedAt)
    try fields.encodeIfPresent(message, forKey: .message)
    if deleted { try fields.encode(true, forKey: .deleted) }
    try fields.encodeIfPresent(serverKey, forKey: .serverKey)
    try fields.encodeIfPresent(version, forKey: .version)
    try fields.encodeIfPresent(serverValue, forKey: .server)
  }
}

extension StoredRecord: Equatable where Value: Equatable {}

/// ``StoredRecord``'s rarer fields.
struct RecordRareFields: OutOfLineFields {
  var message: String?
  var serverKey: String?
  var version: String?
  var legacyLocalKey: String?
  var server: Data?
}
