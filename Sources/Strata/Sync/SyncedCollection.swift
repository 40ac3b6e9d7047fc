import Foundation

/// One kind of item kept on this device beside an app's API, changed online and offline, and
/// kept in step with the server: the app describes its API once (``RemoteCollection``) and
/// the collection does everything else.
///
/// - **Identity**: something made here gets a local id for life (``ItemReference/local(_:)``);
///   the server's id is an attribute beside it, never assumed unique.
/// - **Folding**: an edit of an item whose creation or edit was never sent becomes part of it
///   (one request); a deletion of one never sent withdraws it (no request). A change that may
///   have reached the server is never rewritten: each send is recorded before it goes, and a
///   later change follows it as a change of its own.
/// - **Order and exactly-once**: changes go in the order made, one at a time, each under the
///   idempotency key fixed when it was made — once, where the server honours
///   `Idempotency-Key`. A change to an item whose creation is on its way waits for it, goes to
///   the number the server gave, and fails with it.
/// - **Conflicts**: see ``sync(progress:)``. **Dead letters**: a refused change is kept,
///   `failed`, until retried or discarded; the queue moves on.
/// - **The account line**: each owner (``DataOwner``) has a store of its own; every call works
///   on the current owner's, and a change is sent only in its owner's session.
/// - **A value is the server's value plus the changes on top**: dropping a change (a discard,
///   or `theirs` for a conflict) goes back to the server's value, never deletes the item.
public actor SyncedCollection<Item: SyncedItem> {
  /// An item as the device has it, with where it stands with the server.
  public struct Entry: Sendable, Equatable {
    /// What the device shows: the server's value with the device's changes on top.
    public var item: Item
    public var status: SyncStatus
    /// The server's refusal, for `failed`; the conflict, for `conflicted`.
    public var message: String?
    /// Deleted here: going (`pending`), or the deletion refused (`failed`).
    public var deleted = false
    /// The id this device gave it when it was made here: its key on the device for its whole
    /// life; nil for what was read from the server.
    public var localId: String?
    /// The server's value as last seen, under the device's change; nil when the item is shown
    /// as the server has it, or the server never had it.
    public var server: Item?
    /// The keys (``OutboxEntry/idempotencyKey``) of the changes to it not yet synced, oldest
    /// first, as ``SyncedCollection/local(_:)`` lists them (a change's own answer names that change alone).
    public var changes: [String] = []

    public init(
      item: Item, status: SyncStatus, message: String? = nil, deleted: Bool = false,
      localId: String? = nil, server: Item? = nil, changes: [String] = []
    ) {
      (self.item, self.status, self.message) = (item, status, message)
      (self.deleted, self.localId, self.server, self.changes) = (deleted, localId, server, changes)
    }

    init(key: String, _ record: StoredRecord<Item>, changes: [String] = []) {
      self.init(
        item: record.value, status: record.status, message: record.message,
        deleted: record.deleted, localId: ItemReference<Item.ID>.local(in: key),
        server: record.serverValue.flatMap { try? StoreJSON.decoder().decode(Item.self, from: $0) },
        changes: changes)
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

  public typealias Outcome = LocalStore<Item>.Outcome

  let api: any RemoteCollection<Item>
  let kinds: ChangeKinds
  private let openStore: @Sendable (DataOwner) -> LocalStore<Item>
  private let owner: @Sendable () async -> DataOwner
  /// The stores opened so far, by owner (one instance each: its sync flag lives in it).
  private var stores: [DataOwner: LocalStore<Item>] = [:]
  let connectivity: Connectivity?
  let maxAttempts: Int
  let conflicts: ConflictPolicy

  /// Items of `api` kept in the store `stores` opens for the owner `owner` says is signed in
  /// (asked at every call). `connectivity` says when to keep a change without trying; a change
  /// sent `maxAttempts` times without an outcome is given up (`failed`), so the ones behind it
  /// go on; a conflict is settled as `conflicts` says.
  public init(
    api: any RemoteCollection<Item>, stores: @escaping @Sendable (DataOwner) -> LocalStore<Item>,
    owner: @escaping @Sendable () async -> DataOwner, connectivity: Connectivity? = nil,
    maxAttempts: Int = 5, conflicts: ConflictPolicy = .ask
  ) {
    (self.api, self.kinds, self.openStore, self.owner) = (api, Item.changeKinds, stores, owner)
    (self.connectivity, self.maxAttempts, self.conflicts) = (connectivity, maxAttempts, conflicts)
  }

  /// Whom the items shown and the changes sent belong to now: the signed-in account, or the
  /// device when no one is signed in.
  public func currentOwner() async -> DataOwner { await owner() }

  /// The current owner's store.
  func store() async -> LocalStore<Item> { store(of: await owner()) }

  private func store(of who: DataOwner) -> LocalStore<Item> {
    if let store = stores[who] { return store }
    let store = openStore(who)
    stores[who] = store
    return store
  }

  // MARK: Reading

  /// What the device has that `query` asks for — by default everything, newest change first:
  /// shown at once, before any request, the device's changes on top of the server's values.
  public func local(_ query: ValueQuery<Item> = ValueQuery()) async throws -> [Entry] {
    try await Self.entries(store(), query)
  }

  /// How many items the device has that `query` matches (its offset and limit aside).
  public func count(_ query: ValueQuery<Item> = ValueQuery()) async throws -> Int {
    try await store().count(query)
  }

  /// Reads a page from the server and keeps it (the device's changes stay on top), then
  /// returns what the device has.
  public func refresh(limit: Int = 10, skip: Int = 0) async throws -> [Entry] {
    try await keep(api.items(limit: limit, skip: skip))
  }

  /// Keeps `items` (a page the app just showed) on the device, so they can change offline:
  /// merged with what it keeps (a page is not the whole listing, so nothing else goes; a
  /// ``pull(pageSize:)`` takes out what the server deleted); the device's own changes stay.
  @discardableResult
  public func keep(_ items: [Item]) async throws -> [Entry] {
    let store = await store()
    try await store.merge(items.map { (Self.key(.server($0.id)), $0) }, complete: false)
    return try await Self.entries(store)
  }

  /// Every change in the outbox of the owner signed in now — or of `owner`, for a report on
  /// a sync that began in that owner's session — oldest first.
  public func outbox(of owner: DataOwner? = nil) async throws -> [OutboxEntry] {
    guard let owner else { return try await store().outbox() }
    return try await store(of: owner).outbox()
  }

  /// The changes not yet synced to the item `reference` names (by its key, or the server's
  /// key a value made here was given), oldest first.
  public func changes(to reference: ItemReference<Item.ID>) async throws -> [OutboxEntry] {
    let key = Self.key(reference)
    return try await outbox().filter {
      $0.status != .synced && ($0.recordKey == key || $0.serverKey == key)
    }
  }

  // MARK: Keys

  /// The key on the device of the item `reference` names.
  public static func key(_ reference: ItemReference<Item.ID>) -> String {
    reference.key(Item.itemName)
  }

  /// A new local id: eight lowercase hex digits, at least one a letter — all digits could read
  /// as a server's number.
  public static func newLocalId() -> String {
    while true {
      let id = String(UUID().uuidString.filter(\.isHexDigit).prefix(8)).lowercased()
      if id.contains(where: \.isLetter) { return id }
    }
  }

  static func entries(_ store: LocalStore<Item>, _ query: ValueQuery<Item> = ValueQuery())
    async throws -> [Entry]
  {
    try await entries(store, query, after: nil).entries
  }

  /// `query`'s entries, and its window to bring up to date next time (from `earlier`).
  static func entries(
    _ store: LocalStore<Item>, _ query: ValueQuery<Item>, after earlier: QueryWindow<Item>?
  ) async throws -> (entries: [Entry], window: QueryWindow<Item>) {
    let window = try await store.window(query, after: earlier)
    let records = window.page(query)
    let changes = try await store.unsentChanges(to: records.map(\.key))
    return (records.map { Entry(key: $0.key, $0.record, changes: changes[$0.key] ?? []) }, window)
  }
}
