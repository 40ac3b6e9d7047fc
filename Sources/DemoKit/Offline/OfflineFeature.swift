import Foundation
import Strata

/// What ``OfflinePosts`` and ``OfflineTodos`` share: an ``OfflineCollection`` of their values,
/// kept under `<name>-<id>` (`local-<id>` for one made here), read, synced, deleted and
/// inspected the same way. Each adds its own creation and edit.
public protocol OfflineFeature: Sendable {
  associatedtype Value: Codable & Sendable & Equatable & Identifiable where Value.ID == Int
  var collection: OfflineCollection<Value> { get }
  /// What one is called in keys and messages (`post`, `todo`).
  static var name: String { get }
  /// The outbox kinds of a creation and a deletion.
  static var createKind: String { get }
  static var deleteKind: String { get }
}

extension OfflineFeature {
  /// What the device has, newest change first.
  public func local() async throws -> [OfflineCollection<Value>.Entry] {
    try await collection.local()
  }

  /// Sends every pending change in order (see ``OfflineCollection/sync(progress:)``).
  public func sync(progress: (@Sendable (LocalStore<Value>.Progress) -> Void)? = nil) async throws
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

  /// Sends a change to a value the server has — an edit (one of `edits`, sent by `update`
  /// with the server's id and the payload) or a deletion — to the server's id; nil for a
  /// deletion, which leaves nothing to keep.
  /// - Throws: ``ChangeRefused`` for a kind this build does not know, or no server id.
  static func send(
    _ entry: OutboxEntry, edits: Set<String>,
    update: (Int, Data) async throws -> Value, delete: (Int) async throws -> Void
  ) async throws -> OfflineCollection<Value>.Settled? {
    let id = try serverID(entry)
    if edits.contains(entry.kind) {
      return .init(key: key(id), value: try await update(id, entry.payload))
    }
    guard entry.kind == deleteKind else {
      throw ChangeRefused("this build does not know a change of kind \(entry.kind)")
    }
    try await delete(id)
    return nil
  }

  /// Encodes a change's payload.
  static func payload(_ value: some Encodable) throws -> Data { try JSONEncoder().encode(value) }
}
