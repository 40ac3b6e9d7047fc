/// How an app's API holds one kind of item: the requests a ``SyncedCollection`` makes, and
/// nothing else — identity, folding, ordering, exactly-once, conflicts, the account line and
/// dead letters are the collection's.
///
/// Every write carries the idempotency key it is given: the same on every send of one change,
/// so a lost answer is retried under it, and the change is made once where the server answers
/// a repeated key with its first answer. A write given a version sends it as `If-Match`
/// (``Request/ifMatch``): a server whose item changed since answers 412 and changes nothing.
/// A server with no validators gets nil versions, and the collection compares the item's
/// fields before it writes instead (last writer wins only where the server gives neither).
public protocol RemoteCollection<Item>: Sendable {
  associatedtype Item: SyncedItem
  /// A page of items, in the server's order: `limit` of them after the first `skip`.
  func items(limit: Int, skip: Int) async throws -> [Item]
  /// What changed on the server after `cursor` (nil: from the start, every item there is),
  /// or nil when the API cannot list changes — the default, and then a pull reads every page
  /// of ``items(limit:skip:)``.
  func changes(after cursor: String?) async throws -> RemoteChanges<Item>?
  /// The item as the server has it now (asked, never a kept answer) and its version (its
  /// `ETag`; nil when the server gives none; a weak one is not used, as `If-Match` cannot
  /// match it).
  /// - Throws: `NetworkError` with status 404 or 410 when it is gone.
  func latest(id: Item.ID) async throws -> (item: Item, version: String?)
  /// Creates an item: the server's answer, numbered.
  func create(_ draft: Item.Draft, idempotencyKey: String) async throws -> Item
  /// Changes an item, `If-Match` on `version` when given.
  /// - Returns: The item as changed, and its new version when the server gave one.
  func update(id: Item.ID, _ edit: Item.Edit, idempotencyKey: String, ifMatch version: String?)
    async throws -> (item: Item, version: String?)
  /// Deletes an item, `If-Match` on `version` when given.
  func delete(id: Item.ID, idempotencyKey: String, ifMatch version: String?) async throws
}

extension RemoteCollection {
  /// No listing of changes: a pull reads every page.
  public func changes(after cursor: String?) async throws -> RemoteChanges<Item>? { nil }

  /// Changes an item whatever its version (last write wins).
  public func update(id: Item.ID, _ edit: Item.Edit, idempotencyKey: String) async throws -> Item {
    try await update(id: id, edit, idempotencyKey: idempotencyKey, ifMatch: nil).item
  }

  /// Deletes an item whatever its version.
  public func delete(id: Item.ID, idempotencyKey: String) async throws {
    try await delete(id: id, idempotencyKey: idempotencyKey, ifMatch: nil)
  }
}
