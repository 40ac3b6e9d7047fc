import Foundation
import Strata

/// One kind of item kept on this device beside the API (posts, todos): the list is read from
/// the store first and refreshed from the server (stale-while-revalidate); a change made
/// offline — or when the server cannot be reached — is shown at once as `pending` and sent
/// by ``sync()`` with the `Idempotency-Key` fixed when it was made.
///
/// Everything it keeps belongs to whoever is signed in when it is kept (``DataOwner``): each
/// owner has a ``LocalStore`` of its own, and every call works on the current owner's alone —
/// another account's items are never listed, and its changes never synced, in this session;
/// they wait, intact, for their owner to sign in again.
public actor OfflineCollection<Item: Codable & Sendable & Equatable> {
  /// An item as the device has it, with where it stands with the server.
  public struct Entry: Sendable, Equatable {
    public var item: Item
    public var status: SyncStatus
    /// The server's refusal, for `failed`.
    public var message: String?
    /// Deleted here: going (`pending`), or the deletion refused (`failed`).
    public var deleted = false
    /// The id this device gave it when it was made here (see ``localKey(_:)``): its key on the
    /// device for its whole life, the server's id only an attribute beside it (two things made
    /// here may be given one id); nil for what was read from the server.
    public var localId: String?

    public init(
      item: Item, status: SyncStatus, message: String? = nil, deleted: Bool = false,
      localId: String? = nil
    ) {
      (self.item, self.status, self.message) = (item, status, message)
      (self.deleted, self.localId) = (deleted, localId)
    }

    init(key: String, _ record: StoredRecord<Item>) {
      self.init(
        item: record.value, status: record.status, message: record.message,
        deleted: record.deleted, localId: OfflineCollection.localId(in: key))
    }
  }

  /// What a sent change came to: the item the server answered with, and its key.
  public typealias Settled = LocalStore<Item>.Settled

  /// Sends one change to the server: what the server answered, nil when it answers nothing
  /// to keep (a deletion).
  public typealias Send = @Sendable (OutboxEntry) async throws -> Settled?

  private let open: @Sendable (DataOwner) -> LocalStore<Item>
  private let owner: @Sendable () async -> DataOwner
  /// The stores opened so far, by owner (one instance each: its sync flag and state live in it).
  private var stores: [DataOwner: LocalStore<Item>] = [:]
  private let connectivity: Connectivity?
  private let maxAttempts: Int
  private let conflicts: ConflictPolicy
  private let send: Send
  private let analytics: any Analytics
  /// The plural in the `sync_completed` event's properties (`posts_synced`).
  private let name: String

  /// A collection kept in the store `stores` opens for the owner `owner` says is signed in
  /// (asked at every call); `send` carries a change to the server; `connectivity` says when to
  /// keep a change without trying; a change sent `maxAttempts` times without going through is
  /// given up (`failed`), so the ones behind it go on; a change that meets a conflict
  /// (``ChangeConflict``) is settled as `conflicts` says. Each sync is reported to `analytics`
  /// as `sync_completed`, counted under `name` (`posts_synced`, …).
  public init(
    stores: @escaping @Sendable (DataOwner) -> LocalStore<Item>,
    owner: @escaping @Sendable () async -> DataOwner, name: String,
    connectivity: Connectivity? = nil, maxAttempts: Int = 5, conflicts: ConflictPolicy = .ask,
    analytics: any Analytics = NoAnalytics(), send: @escaping Send
  ) {
    (self.open, self.owner, self.name, self.connectivity, self.maxAttempts) =
      (stores, owner, name, connectivity, maxAttempts)
    (self.analytics, self.send, self.conflicts) = (analytics, send, conflicts)
  }

  /// Whom the items shown and the changes sent belong to now: the signed-in account, or the
  /// device when no one is signed in.
  public func currentOwner() async -> DataOwner { await owner() }

  /// The current owner's store.
  private func store() async -> LocalStore<Item> { store(of: await owner()) }

  private func store(of who: DataOwner) -> LocalStore<Item> {
    if let store = stores[who] { return store }
    let store = open(who)
    stores[who] = store
    return store
  }

  /// What the device has, newest change first: shown at once, before any request.
  public func local() async throws -> [Entry] { try await Self.entries(store()) }

  /// Keeps a fresh page from the server (local changes stay) and returns the local list.
  public func refresh(with page: [(key: String, item: Item)]) async throws -> [Entry] {
    let store = await store()
    try await store.replaceSynced(with: page.map { ($0.key, $0.item) })
    return try await Self.entries(store)
  }

  /// The record key of something made on this device, by the id it was given
  /// (``Entry/localId``): `local-<id>`.
  public static func localKey(_ id: String) -> String { "local-" + id }

  /// The local id in a record key made by ``localKey(_:)``; nil for a key from the server.
  public static func localId(in key: String) -> String? {
    key.hasPrefix("local-") ? String(key.dropFirst("local-".count)) : nil
  }

  /// A new local id: eight lowercase hex digits, at least one a letter — all digits would read
  /// as a server's number (``ItemID``).
  public static func newLocalId() -> String {
    while true {
      let id = String(UUID().uuidString.filter(\.isHexDigit).prefix(8)).lowercased()
      if id.contains(where: \.isLetter) { return id }
    }
  }

  /// Keeps something made here (`kind`, `payload`, shown as `shown`) under a new local id —
  /// eight lowercase hex digits, short enough to type; another is drawn when the device already
  /// has one — and sends it as ``change(_:offline:_:)`` does.
  /// - Returns: The item as the device now has it.
  public func make(kind: String, payload: Data, shown: Item, offline: Bool) async throws -> Entry {
    while true {
      let id = Self.newLocalId()
      let made = try await change(Self.localKey(id), offline: offline) { current, _ in
        current == nil ? .append(kind: kind, payload: payload, showing: shown) : nil
      }
      guard let made else { continue }  // taken: draw again
      return made.entry ?? Entry(item: shown, status: .pending, localId: id)
    }
  }

  /// Keeps a change to the item under `key` — a new one made here, an edit, a deletion — as
  /// `plan` decides from what the device has at that moment (see
  /// ``LocalStore/enqueue(_:_:)``: the record, and the newest change to it when it can
  /// still be rewritten), in one locked step, so changes made at once, in any processes, each
  /// start from the last one. Then, unless `offline` (or the device has no route), sends the
  /// outbox now — or leaves that to a sync already running.
  /// - Returns: The plan carried out (nil: `plan` made no change, or named a change not yet
  ///   sent that there was none of) and the item as the device now has it (nil: no longer
  ///   kept — discarded, or deleted on the server).
  public func change(
    _ key: String, offline: Bool = false,
    _ plan: @escaping @Sendable (StoredRecord<Item>?, OutboxEntry?) throws -> OutboxPlan<Item>?
  ) async throws -> (plan: OutboxPlan<Item>, entry: Entry?)? {
    let store = await store()
    // The store says what it kept, not what was asked: the plan is this call's own.
    let asked = Locked<(plan: OutboxPlan<Item>?, hadUnsent: Bool)>((nil, false))
    let entry = try await store.enqueue(key) { current, unsent in
      let made = try plan(current, unsent)
      asked.withLock { $0 = (made, unsent != nil) }
      return made
    }
    let (made, hadUnsent) = asked.withLock { $0 }
    switch made {
    case nil: return nil
    case .discard?: return hadUnsent ? (.discard, nil) : nil
    case .append(_, _, let shown)?, .rewrite(_, _, let shown)?:
      guard let entry, let made else { return nil }
      return (made, try await sent(entry, from: store, offline: offline, shown: shown))
    }
  }

  /// What a deletion came to on this device.
  public enum Deletion: Sendable, Equatable {
    /// Made here and never sent: dropped, and nothing sent.
    case withdrawn
    /// The server deleted it.
    case deleted
    /// Kept as going (`pending`), or its deletion refused (`failed`).
    case kept(Entry)
  }

  /// Deletes the item under `key` as ``change(_:offline:_:)`` does: its creation not yet sent
  /// (kind `creation`) is withdrawn; any other change not yet sent becomes the deletion (kind
  /// `kind`); else the deletion is a change of its own, after those before it.
  /// - Returns: nil when the device does not have the item (or has it as deleted already).
  public func delete(_ key: String, kind: String, creation: String, offline: Bool) async throws
    -> Deletion?
  {
    let none = Data("{}".utf8)
    let made = try await change(key, offline: offline) { current, unsent in
      guard let current, !current.deleted else { return nil }
      guard let unsent else { return .append(kind: kind, payload: none, showing: nil) }
      return unsent.kind == creation ? .discard : .rewrite(kind: kind, payload: none, showing: nil)
    }
    switch made {
    case nil: return nil
    case (.discard, _)?: return .withdrawn
    case (_, nil)?: return .deleted
    case (_, let entry?)?: return .kept(entry)
    }
  }

  /// Unless `offline` (or the device has no route), sends `store`'s outbox now — or leaves
  /// that to a sync already running — and says how `entry`'s item stands (nil: no longer kept).
  /// Kept without a send, the item is `shown` — what this change made of it, not what a
  /// change made since in another process did.
  private func sent(
    _ entry: OutboxEntry, from store: LocalStore<Item>, offline: Bool, shown: Item? = nil
  ) async throws -> Entry? {
    let sending = !offline && connectivity?.isOnline ?? true
    if sending {
      // This change alone: a command about one item never sends another's (one that follows
      // a change still to go waits for it).
      do { _ = try await sync(store, only: [entry.id], progress: nil) } catch FileError
        .syncInProgress
      {}
    }
    // The item keeps its key for life: the server's id, once given, is beside it.
    guard let key = entry.recordKey,
      var kept = try await store.record(key).map({
        Entry(key: key, $0)
      })
    else { return nil }
    if !sending, let shown { kept.item = shown }
    return kept
  }

  /// Sends every pending change in the order it was made (see `LocalStore.sync`). A change
  /// fails for good (a dead letter, kept to look at) when the server refuses it or took it
  /// and answered what cannot be read (`ChangeRefused(NetworkError)`, the store's rule), or
  /// after `maxAttempts` sends — each one call with the service's retries, so at most
  /// `maxAttempts × (1 + RETRY_MAX_RETRIES)` requests under one `Idempotency-Key`; any other
  /// failure keeps it pending. A cancelled sync stops
  /// before the next change; the one in flight finishes within its request's deadline.
  /// - Throws: `FileError.syncInProgress` when another sync of this store is running.
  public func sync(progress: (@Sendable (TransferProgress, OutboxEntry) -> Void)? = nil)
    async throws
    -> [LocalStore<Item>.Outcome]
  {
    try await sync(await store(), only: nil, progress: progress)
  }

  private func sync(
    _ store: LocalStore<Item>, only: Set<UUID>?,
    progress: (@Sendable (TransferProgress, OutboxEntry) -> Void)?
  ) async throws -> [LocalStore<Item>.Outcome] {
    // Its own task: cancelling the sync must not abandon a send half done. What a failure
    // means for the change is the store's one rule (`ChangeRefused(NetworkError)`).
    let sending: @Sendable (OutboxEntry) async throws -> Settled? = { [send] entry in
      try await Task { try await send(entry) }.value
    }
    var outcomes = try await store.sync(
      only: only, maxAttempts: maxAttempts, progress: progress, send: sending)
    if case .always(let choice) = conflicts {
      // The kind's policy settles what the user would be asked; the device's side goes again
      // at once, once (a second conflict waits for the user).
      let conflicted = outcomes.filter { $0.entry.status == .conflicted }.map(\.entry.id)
      for id in conflicted { try await store.resolve(id, keeping: choice) }
      if choice == .mine, !conflicted.isEmpty {
        let again = try await store.sync(
          only: Set(conflicted), maxAttempts: maxAttempts, send: sending)
        outcomes = outcomes.filter { !conflicted.contains($0.entry.id) } + again
      } else if !conflicted.isEmpty {
        let settled = try await store.outbox().filter { conflicted.contains($0.id) }
        outcomes = outcomes.map { outcome in
          settled.first { $0.id == outcome.entry.id }.map { .init(entry: $0, settled: nil) }
            ?? outcome
        }
      }
    }
    analytics.track("sync_completed", SyncCounts(outcomes).properties(kind: name))
    return outcomes
  }

  /// Settles a conflicted change (see ``LocalStore/resolve(_:keeping:)``): `.mine` puts it
  /// back on top of the server's value for the next sync, `.theirs` keeps the server's value.
  /// - Returns: Whether there was such a change.
  public func resolve(_ id: UUID, keeping choice: ConflictResolution) async throws -> Bool {
    try await store().resolve(id, keeping: choice)
  }

  /// Drops a refused change for good, with the item shown for it.
  /// - Returns: Whether there was such a change.
  public func discard(_ id: UUID) async throws -> Bool { try await store().discard(id) }

  /// Puts the refused changes — or those with the identities in `only` — back in the queue for
  /// the next sync.
  /// - Returns: How many.
  public func retryFailed(only: Set<UUID>? = nil) async throws -> Int {
    try await store().retryFailed(only: only)
  }

  /// Every change in the outbox of the owner signed in now — or of `owner`, for a report on
  /// a sync that began in that owner's session (which may have ended while it ran) — oldest
  /// first.
  public func outbox(of owner: DataOwner? = nil) async throws -> [OutboxEntry] {
    guard let owner else { return try await store().outbox() }
    return try await store(of: owner).outbox()
  }

  private static func entries(_ store: LocalStore<Item>) async throws -> [Entry] {
    try await store.records().map { Entry(key: $0.key, $0.record) }
  }
}
