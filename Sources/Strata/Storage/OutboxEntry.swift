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
  public let payload: Data
  /// When it was queued, by the store's clock (the order changes are sent in).
  public let createdAt: Date
  /// `pending` until a send's outcome is recorded; `synced` and `failed` are final until
  /// ``LocalStore/retryFailed()`` puts a failed change back.
  public var status: SyncStatus
  /// How many times it was sent.
  public var attempts: Int
  /// The server's refusal, for `failed`; the last transient failure, for `pending`; a note
  /// about the kept answer, for `synced`.
  public var message: String?
  /// The key of the value shown for this change on the device (its status follows the
  /// change's), and once `synced`, of the server's answer: the value's own key for its whole
  /// life on the device, whatever id the server gives it.
  public var recordKey: String?
  /// The key the server knows that value by, as the store had it when the change was last
  /// handed to a sync's `send` (``StoredRecord/serverKey``, or the record key of a value read
  /// from the server); nil before that, and for a creation until its answer came (then the
  /// answer's key). A sender addresses an edit or a deletion to it.
  public var serverKey: String?
  /// The earlier change to the same value that this one follows (an edit of something whose
  /// creation is not yet sent): it is sent only after that one is synced — to the key the
  /// server gave it — and fails with it if that one fails.
  public var after: UUID?
  /// The value the change was made from, as the server last showed it (JSON; nil for a
  /// creation, or a change that follows another change of the device's): what a sender
  /// compares with the server's current value just before the write, so an edit never
  /// silently overwrites a newer one (``ChangeConflict``).
  public var base: Data?
  /// The server's validator of ``base`` (an `ETag`), when it gave one: the write goes with
  /// `If-Match` on it.
  public var baseVersion: String?
  /// For a ``SyncStatus/conflicted`` change: the server's side of it.
  public var conflict: ChangeConflict?

  /// The `Idempotency-Key` header value: the entry's identity.
  public var idempotencyKey: String { id.uuidString }

  /// A new, pending change.
  package init(id: UUID = UUID(), kind: String, payload: Data, createdAt: Date) {
    self.id = id
    self.kind = kind
    self.payload = payload
    self.createdAt = createdAt
    self.status = .pending
    self.attempts = 0
  }
}
