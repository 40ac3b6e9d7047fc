import Foundation

/// A change made locally and waiting to be sent: what it is (`kind`, e.g. `post.create`), its
/// body, and the `Idempotency-Key` fixed when it was made — the same on every send, in any
/// process, so the server can tell a replay from a new change.
public struct OutboxEntry: Codable, Sendable, Equatable, Identifiable {
  /// Its identity (also its idempotency key).
  public let id: UUID
  /// What the change is, for the sender to dispatch on.
  public let kind: String
  /// The change's data (JSON of the sender's choosing).
  public var payload: Data { Data(payloadBytes) }
  /// ``payload``, in one allocation: a `Data` of more than 14 bytes takes two (its storage
  /// object and the bytes), 48 bytes more for each of a long queue's changes.
  private let payloadBytes: [UInt8]
  /// When it was queued, by the store's clock (the order changes are sent in).
  public let createdAt: Date
  /// ``recordKey`` as the store holds it: a key made on the device is a UUID's 16 bytes, not a
  /// string of its own. Declared before ``status``, which fills the byte after its 17: an
  /// entry takes 88 bytes in the outbox, not 96.
  var storeKey: StoreKey?
  /// `pending` until a send's outcome is recorded; `synced` and `failed` are final until
  /// ``LocalStore/retryFailed(only:)`` puts a failed change back.
  public var status: SyncStatus
  /// How many times it was sent.
  public var attempts: Int
  /// The server's refusal, for `failed`; the last transient failure, for `pending`; a note
  /// about the kept answer, for `synced`.
  public var message: String? {
    get { rare.fields.message }
    set { rare.fields.message = newValue }
  }
  /// The key of the value shown for this change on the device (its status follows the
  /// change's), and once `synced`, of the server's answer: the value's own key for its whole
  /// life on the device, whatever id the server gives it.
  public var recordKey: String? {
    get { storeKey?.string }
    set { storeKey = newValue.map(StoreKey.init) }
  }
  /// The key the server knows that value by, as the store had it when the change was last
  /// handed to a sync's `send` (``StoredRecord/serverKey``, or the record key of a value read
  /// from the server); nil before that, and for a creation until its answer came (then the
  /// answer's key). A sender addresses an edit or a deletion to it.
  public var serverKey: String? {
    get { rare.fields.serverKey }
    set { rare.fields.serverKey = newValue }
  }
  /// The earlier change to the same value that this one follows (an edit of something whose
  /// creation is not yet sent): it is sent only after that one is synced — to the key the
  /// server gave it — and fails with it if that one fails.
  public var after: UUID? {
    get { rare.fields.after }
    set { rare.fields.after = newValue }
  }
  /// The value the change was made from, as the server last showed it (JSON; nil for a
  /// creation, or a change that follows another change of the device's): what a sender
  /// compares with the server's current value just before the write, so an edit never
  /// silently overwrites a newer one (``ChangeConflict``).
  public var base: Data? {
    get { rare.fields.base }
    set { rare.fields.base = newValue }
  }
  /// The server's validator of ``base`` (an `ETag`), when it gave one: the write goes with
  /// `If-Match` on it.
  public var baseVersion: String? {
    get { rare.fields.baseVersion }
    set { rare.fields.baseVersion = newValue }
  }
  /// For a ``SyncStatus/conflicted`` change: the server's side of it.
  public var conflict: ChangeConflict? {
    get { rare.fields.conflict }
    set { rare.fields.conflict = newValue }
  }

  /// What only some changes carry — a message, the change it follows, where the server has
  /// the value, what the change was made from, a conflict — kept apart, so a store of 100,000
  /// changes waiting to be created pays one pointer each for them rather than 130 bytes.
  struct RareFields: OutOfLineFields {
    var message: String?
    var after: UUID?
    var serverKey: String?
    var base: Data?
    var baseVersion: String?
    var conflict: ChangeConflict?
  }

  private var rare = OutOfLine<RareFields>()

  /// Every field kept apart at once (a line read: one allocation, or none).
  var rareFields: RareFields {
    get { rare.fields }
    set { rare.fields = newValue }
  }

  public static func == (lhs: OutboxEntry, rhs: OutboxEntry) -> Bool {
    (lhs.id, lhs.kind, lhs.payloadBytes, lhs.createdAt)
      == (rhs.id, rhs.kind, rhs.payloadBytes, rhs.createdAt)
      && (lhs.status, lhs.attempts, lhs.storeKey) == (rhs.status, rhs.attempts, rhs.storeKey)
      && lhs.rare == rhs.rare
  }

  /// The `Idempotency-Key` header value: the entry's identity.
  public var idempotencyKey: String { id.uuidString }

  /// A new, pending change.
  package init(id: UUID = UUID(), kind: String, payload: Data, createdAt: Date) {
    self.id = id
    self.kind = kind
    self.payloadBytes = Array(payload)
    self.createdAt = createdAt
    self.status = .pending
    self.attempts = 0
  }

  private enum CodingKeys: String, CodingKey {
    case id, kind, payload, createdAt, status, attempts, message, recordKey, serverKey, after
    case base, baseVersion, conflict
  }

  public init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try fields.decode(UUID.self, forKey: .id),
      kind: try fields.decode(String.self, forKey: .kind),
      payload: try fields.decode(Data.self, forKey: .payload),
      createdAt: try fields.decode(Date.self, forKey: .createdAt))
    status = try fields.decode(SyncStatus.self, forKey: .status)
    attempts = try fields.decode(Int.self, forKey: .attempts)
    recordKey = try fields.decodeIfPresent(String.self, forKey: .recordKey)
    rareFields = RareFields(
      message: try fields.decodeIfPresent(String.self, forKey: .message),
      after: try fields.decodeIfPresent(UUID.self, forKey: .after),
      serverKey: try fields.decodeIfPresent(String.self, forKey: .serverKey),
      base: try fields.decodeIfPresent(Data.self, forKey: .base),
      baseVersion: try fields.decodeIfPresent(String.self, forKey: .baseVersion),
      conflict: try fields.decodeIfPresent(ChangeConflict.self, forKey: .conflict))
  }

  // A field only when it has a value, as a line costs nothing for what most changes lack.
  public func encode(to encoder: any Encoder) throws {
    var fields = encoder.container(keyedBy: CodingKeys.self)
    try fields.encode(id, forKey: .id)
    try fields.encode(kind, forKey: .kind)
    try fields.encode(payload, forKey: .payload)
    try fields.encode(createdAt, forKey: .createdAt)
    try fields.encode(status, forKey: .status)
    try fields.encode(attempts, forKey: .attempts)
    try fields.encodeIfPresent(message, forKey: .message)
    try fields.encodeIfPresent(recordKey, forKey: .recordKey)
    try fields.encodeIfPresent(serverKey, forKey: .serverKey)
    try fields.encodeIfPresent(after, forKey: .after)
    try fields.encodeIfPresent(base, forKey: .base)
    try fields.encodeIfPresent(baseVersion, forKey: .baseVersion)
    try fields.encodeIfPresent(conflict, forKey: .conflict)
  }
}
