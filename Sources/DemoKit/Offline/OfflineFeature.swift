import Foundation
import Strata

/// What every feature kept on the device shares (posts and todos in the demo): Strata's
/// ``SyncedCollection`` of its values, and the demo app's words around it — its errors in the
/// user's language (``NotOnDevice``, ``SharedServerID``) and the `sync_completed` event. The
/// collection keeps every promise (identity, folding, order, conflicts); a feature adds only
/// its rules.
public protocol OfflineFeature: OutboxSender {
  associatedtype Value: CollectionItem
  var collection: SyncedCollection<Value> { get }
  /// Where each sync is reported (`sync_completed`).
  var analytics: any Analytics { get }
}

extension OfflineFeature {
  /// What one is called in keys and messages (`post`, `todo`).
  static var name: String { Value.itemName }

  /// Fetches a page and keeps it (local changes stay), then returns the local list.
  public func refresh(limit: Int = 10, skip: Int = 0) async throws
    -> [SyncedCollection<Value>.Entry]
  {
    try await collection.refresh(limit: limit, skip: skip)
  }

  /// Changes item `id` as the device has it at that moment (see
  /// ``SyncedCollection/edit(_:offline:_:)``) and, unless `offline`, sends it.
  /// - Throws: What `edit` throws; ``NotOnDevice`` when the device does not have the item (or
  ///   has it only as deleted); ``SharedServerID``.
  func change(
    _ id: ItemID, offline: Bool, _ edit: @escaping @Sendable (Value) throws -> Value.Edit
  ) async throws -> SyncedCollection<Value>.Entry {
    let made = try await Self.addressing(id) {
      try await collection.edit(id, offline: offline, edit)
    }
    guard let made else { throw NotOnDevice(Self.name, id) }
    return made
  }

  /// What the device has, newest change first.
  public func local() async throws -> [SyncedCollection<Value>.Entry] {
    try await collection.local()
  }

  /// Sends every pending change in order (see ``SyncedCollection/sync(progress:)``) and
  /// reports the sync as `sync_completed`.
  public func sync(progress: (@Sendable (TransferProgress, OutboxEntry) -> Void)? = nil)
    async throws -> [SyncedCollection<Value>.Outcome]
  {
    let outcomes = try await collection.sync(progress: progress)
    analytics.track("sync_completed", SyncCounts(outcomes).properties(kind: Self.name + "s"))
    return outcomes
  }

  public func sendPending() async throws -> [OutboxEntry] { try await sync().map(\.entry) }

  public func outbox(of owner: DataOwner? = nil) async throws -> [OutboxEntry] {
    try await collection.outbox(of: owner)
  }

  /// Keeps `items` (a page the app just showed) on the device, so they can change offline;
  /// the device's own changes stay.
  @discardableResult
  public func keep(_ items: [Value]) async throws -> [SyncedCollection<Value>.Entry] {
    try await collection.keep(items)
  }

  /// Deletes `id` on the device and, unless `offline`, on the server (see
  /// ``SyncedCollection/delete(_:offline:)``).
  /// - Throws: ``NotOnDevice`` when the device does not have it; ``SharedServerID``.
  public func delete(_ id: ItemID, offline: Bool = false) async throws
    -> SyncedCollection<Value>.Deletion
  {
    let deletion = try await Self.addressing(id) {
      try await collection.delete(id, offline: offline)
    }
    guard let deletion else { throw NotOnDevice(Self.name, id) }
    return deletion
  }

  /// Settles the conflicted change to `id` (see ``ConflictResolution``).
  /// - Returns: Whether `id` had a conflicted change.
  /// - Throws: ``SharedServerID`` for a server id several items here carry.
  @discardableResult
  public func resolve(_ id: ItemID, keeping choice: ConflictResolution) async throws -> Bool {
    try await Self.addressing(id) { try await collection.resolve(id, keeping: choice) }
  }

  /// Runs `change` on the item `id` names; a server id that several items here carry is
  /// refused as ``SharedServerID``, naming their local ids.
  static func addressing<T>(_ id: ItemID, _ change: () async throws -> T) async throws -> T {
    do {
      return try await change()
    } catch let ambiguous as AmbiguousKey {
      throw SharedServerID(
        name, id, localIds: ambiguous.matching.compactMap(ItemID.local(in:)))
    }
  }
}
