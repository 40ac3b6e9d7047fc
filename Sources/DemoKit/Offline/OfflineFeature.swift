import Foundation
import Strata

/// What every feature kept on the device shares (posts and todos in the demo): an
/// ``OfflineCollection`` of its values, kept under `<name>-<id>` (`local-<id>` for one made
/// here), read, created, changed, synced, deleted and inspected the same way, through the
/// collection's ``CollectionRepository``. Each adds its own rules and words. The offline layer
/// knows no feature: features build on it, never the other way.
///
/// A change to an item made here whose creation has not been sent yet folds into it: an edit
/// makes the creation carry the new fields (one `POST`), a deletion withdraws it (nothing is
/// sent). A change to one whose creation is on its way (a sync is sending it) follows it: it
/// goes once the server has numbered the item, to that number, and fails if the creation does.
public protocol OfflineFeature: Sendable {
  associatedtype Value: CollectionItem
  var collection: OfflineCollection<Value> { get }
  /// Where its changes go.
  var repository: any CollectionRepository<Value> { get }
  /// What one is called in keys and messages (`post`, `todo`).
  static var name: String { get }
  /// The outbox kinds of a creation (a `Value.Draft`), an edit (a `Value.Edit`) and a deletion.
  static var createKind: String { get }
  static var editKind: String { get }
  static var deleteKind: String { get }
  /// Kinds of edit that earlier builds wrote, still sent from the outboxes they kept (each
  /// payload reads as a `Value.Edit`).
  static var formerEditKinds: Set<String> { get }
}

extension OfflineFeature {
  public static var formerEditKinds: Set<String> { [] }

  /// Fetches a page and keeps it (local changes stay), then returns the local list.
  public func refresh(limit: Int = 10, skip: Int = 0) async throws
    -> [OfflineCollection<Value>.Entry]
  {
    let page = try await repository.list(limit: limit, skip: skip)
    return try await keep(page.items)
  }

  /// Keeps `draft` (already checked by the feature's rules) as a pending item under a local id
  /// of its own and, unless `offline`, sends it at once.
  func make(_ draft: Value.Draft, offline: Bool) async throws -> OfflineCollection<Value>.Entry {
    try await collection.make(
      kind: Self.createKind, payload: try Self.payload(draft), shown: Value(draft, id: 0),
      offline: offline)
  }

  /// Changes item `id` as the device has it at that moment and, unless `offline`, sends it.
  /// `edit` gets the item as it is then (and may refuse it), so edits made at once (in any
  /// processes) each start from the last one — a toggle made eight times at once flips it
  /// eight times. The edit folds into the item's creation or an edit not yet sent.
  /// - Throws: What `edit` throws; ``NotOnDevice`` when the device does not have the item (or
  ///   has it only as deleted).
  func change(
    _ id: ItemID, offline: Bool, _ edit: @escaping @Sendable (Value) throws -> Value.Edit
  ) async throws -> OfflineCollection<Value>.Entry {
    let made = try await Self.addressing(id) {
      try await collection.change($0, offline: offline) { current, unsent in
        guard let current, !current.deleted else { throw NotOnDevice(Self.name, id) }
        let change = try edit(current.value)
        let shown = change.applied(to: current.value)
        switch unsent?.kind {
        case Self.createKind?:
          return .rewrite(
            kind: Self.createKind, payload: try Self.payload(shown.draft), showing: shown)
        case let kind? where Self.edits.contains(kind):
          let earlier = try JSONDecoder().decode(Value.Edit.self, from: unsent?.payload ?? Data())
          return .rewrite(
            kind: Self.editKind, payload: try Self.payload(earlier.then(change)), showing: shown)
        default:
          return .append(kind: Self.editKind, payload: try Self.payload(change), showing: shown)
        }
      }
    }
    guard let item = made?.entry else { throw NotOnDevice(Self.name, id) }
    return item
  }

  /// Every kind of edit this build sends.
  private static var edits: Set<String> { formerEditKinds.union([editKind]) }

  /// What the device has, newest change first.
  public func local() async throws -> [OfflineCollection<Value>.Entry] {
    try await collection.local()
  }

  /// Sends every pending change in order (see ``OfflineCollection/sync(progress:)``).
  public func sync(progress: (@Sendable (TransferProgress, OutboxEntry) -> Void)? = nil)
    async throws
    -> [LocalStore<Value>.Outcome]
  {
    try await collection.sync(progress: progress)
  }

  /// Every change, oldest first.
  public func outbox() async throws -> [OutboxEntry] { try await collection.outbox() }

  /// Keeps `items` (a page the app just showed) on the device, so they can change offline;
  /// the device's own changes stay.
  @discardableResult
  public func keep(_ items: [Value]) async throws -> [OfflineCollection<Value>.Entry] {
    try await collection.refresh(with: items.map { (Self.key($0.id), $0) })
  }

  /// Deletes `id` on the device and, unless `offline`, on the server: one made here and never
  /// sent is withdrawn (nothing is sent); a change to it not yet sent becomes the deletion.
  /// - Throws: ``NotOnDevice`` when the device does not have it.
  public func delete(_ id: ItemID, offline: Bool = false) async throws
    -> OfflineCollection<Value>.Deletion
  {
    let deletion = try await Self.addressing(id) {
      try await collection.delete(
        $0, kind: Self.deleteKind, creation: Self.createKind, offline: offline)
    }
    guard let deletion else { throw NotOnDevice(Self.name, id) }
    return deletion
  }

  /// Settles the conflicted change to `id` (see ``ConflictResolution``): mine goes again, on
  /// the server's current version, with the next sync; theirs is kept and mine dropped.
  /// - Returns: Whether `id` had a conflicted change.
  /// - Throws: ``SharedServerID`` for a server id several items here carry.
  @discardableResult
  public func resolve(_ id: ItemID, keeping choice: ConflictResolution) async throws -> Bool {
    let key = id.key(Self.name)
    let conflicted = try await collection.outbox().filter {
      $0.status == .conflicted && ($0.recordKey == key || $0.serverKey == key)
    }
    let items = Set(conflicted.compactMap(\.recordKey))
    guard items.count < 2 else {
      throw SharedServerID(
        Self.name, id, localIds: items.sorted().compactMap(OfflineCollection<Value>.localId(in:)))
    }
    guard let change = conflicted.last else { return false }
    return try await collection.resolve(change.id, keeping: choice)
  }

  static func key(_ id: Int) -> String { ItemID.server(id).key(name) }

  /// Runs `change` on the record key `id` names; a server id that several items here carry is
  /// refused as ``SharedServerID``, naming their local ids.
  static func addressing<T>(_ id: ItemID, _ change: (String) async throws -> T) async throws -> T {
    do {
      return try await change(id.key(name))
    } catch let ambiguous as AmbiguousKey {
      throw SharedServerID(
        name, id, localIds: ambiguous.matching.compactMap(OfflineCollection<Value>.localId(in:)))
    }
  }

  /// The server's id of the value a change is for: the key the server knows it by
  /// (``OutboxEntry/serverKey``, set by the sync), which for something made here is the id its
  /// creation was answered with.
  /// - Throws: ``ChangeRefused`` when it has none (the creation's answer was not kept).
  static func serverID(_ entry: OutboxEntry) throws -> Int {
    guard let id = ItemID.server(in: entry.serverKey ?? entry.recordKey, name) else {
      throw ChangeRefused("the \(name) has no number from the server: its creation was not kept")
    }
    return id
  }

  /// Sends one change through `repository`: a creation (answered with the server's item,
  /// kept under its id), an edit (of ``editKind`` or a former kind) or a deletion, to the
  /// server's id; nil for a deletion, which leaves nothing to keep.
  ///
  /// Never silently over a newer version: a change made from the server's value as last seen
  /// (``OutboxEntry/base``) goes `If-Match` on that value's version when it had one; else the
  /// server's value now is read and compared first — a field changed on the server only
  /// merges (the change sets its own fields on top, `If-Match` on what was read), one changed
  /// on both sides, or any change under a deletion, is a ``ChangeConflict``. A 412 reads the
  /// server's value and decides the same way (a merge is sent once more, on the version
  /// read). A change made from no value of the server's (it follows one made here) is sent as
  /// it is: the last write wins.
  /// - Throws: ``ChangeRefused`` for a kind this build does not know, or no server id;
  ///   ``ChangeConflict``.
  static func send(_ entry: OutboxEntry, to repository: any CollectionRepository<Value>)
    async throws -> OfflineCollection<Value>.Settled?
  {
    let (key, decoder) = (entry.idempotencyKey, JSONDecoder())
    if entry.kind == createKind {
      let made = try await repository.create(
        decoder.decode(Value.Draft.self, from: entry.payload), idempotencyKey: key)
      return .init(key: Self.key(made.id), value: made)
    }
    let (id, edits) = (try serverID(entry), Self.edits)
    guard edits.contains(entry.kind) || entry.kind == deleteKind else {
      throw ChangeRefused("this build does not know a change of kind \(entry.kind)")
    }
    let version = try await precondition(entry, id: id, repository: repository)
    func write(_ version: String?) async throws -> OfflineCollection<Value>.Settled? {
      guard edits.contains(entry.kind) else {
        try await repository.delete(id: id, idempotencyKey: key, ifMatch: version)
        return nil
      }
      let edit = try decoder.decode(Value.Edit.self, from: entry.payload)
      let (value, newVersion) = try await repository.update(
        id: id, edit, idempotencyKey: key, ifMatch: version)
      return .init(key: Self.key(id), value: value, version: newVersion)
    }
    do {
      return try await write(version)
    } catch let error as NetworkError where error.status == 412 {
      // Someone changed it since the version this change was based on: read what they made.
      let (theirs, now) = try await repository.latest(id: id)
      let fields = try overlapping(entry, with: theirs)
      guard fields.isEmpty else {
        throw try ChangeConflict(theirs: theirs, version: now, fields: fields)
      }
      // Their fields are not this change's: it goes on top of their version, once.
      do {
        return try await write(now)
      } catch let again as NetworkError where again.status == 412 {
        throw try ChangeConflict(theirs: theirs, version: now, fields: [])
      }
    }
  }

  /// The version to send `If-Match` on: the change's base version; else, for a change made from
  /// a value read without one, the server's version once its value now is found to merge.
  /// - Throws: ``ChangeConflict`` when it does not.
  private static func precondition(
    _ entry: OutboxEntry, id: Int, repository: any CollectionRepository<Value>
  ) async throws -> String? {
    if let version = entry.baseVersion { return version }
    guard entry.base != nil else { return nil }
    let (theirs, version) = try await repository.latest(id: id)
    let fields = try overlapping(entry, with: theirs)
    guard fields.isEmpty else {
      throw try ChangeConflict(theirs: theirs, version: version, fields: fields)
    }
    return version
  }

  /// The fields both the change and the server changed since the change's base: the
  /// change's own fields for an edit; for a deletion, every field the server changed.
  private static func overlapping(_ entry: OutboxEntry, with theirs: Value) throws -> [String] {
    guard let base = entry.base else { return [] }
    let encoder = JSONEncoder()
    (encoder.outputFormatting, encoder.dateEncodingStrategy) = (.sortedKeys, .millisecondsSince1970)
    let now = try encoder.encode(theirs)
    return entry.kind == deleteKind
      ? ChangeConflict.changed(from: base, to: now)
      : ChangeConflict.overlapping(base: base, mine: entry.payload, theirs: now)
  }

  /// Encodes a change's payload.
  static func payload(_ value: some Encodable) throws -> Data { try JSONEncoder().encode(value) }
}
