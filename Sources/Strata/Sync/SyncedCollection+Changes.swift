import Foundation
import StrataConcurrency

/// Changes made on the device: each kept at once, in one locked step, and sent unless offline.
extension SyncedCollection {
  /// Keeps `draft` as a pending item under a new local id — another is drawn when the device
  /// already has one — and, unless `offline` (or the device has no route), sends it now.
  /// - Returns: The item as the device now has it.
  public func create(_ draft: Item.Draft, offline: Bool = false) async throws -> Entry {
    let payload = try Self.payload(draft)
    let shown = Item(draft)
    while true {
      let id = Self.newLocalId()
      let made = try await change(Self.key(.local(id)), offline: offline) { current, _ in
        current == nil ? .append(kind: self.kinds.create, payload: payload, showing: shown) : nil
      }
      guard let made else { continue }  // taken: draw again
      return made.entry ?? Entry(item: shown, status: .pending, localId: id)
    }
  }

  /// Changes the item `reference` names as the device has it at that moment and, unless
  /// `offline`, sends it. `edit` gets the item as it is then (and may throw to refuse it), so
  /// edits made at once, in any processes, each start from the last one — a toggle made eight
  /// times at once flips it eight times. The edit folds into the item's creation or an edit
  /// not yet sent; after one that may have been sent, it is a change of its own.
  /// - Returns: The item as the device now has it; nil when the device does not have it (or
  ///   has it only as deleted).
  /// - Throws: What `edit` throws; ``AmbiguousKey`` for a server id several items made here
  ///   were given (nothing is changed: name one by its local id).
  public func edit(
    _ reference: ItemReference<Item.ID>, offline: Bool = false,
    _ edit: @escaping @Sendable (Item) throws -> Item.Edit
  ) async throws -> Entry? {
    let kinds = kinds
    let made = try await change(Self.key(reference), offline: offline) { current, unsent in
      guard let current, !current.deleted else { return nil }
      let change = try edit(current.value)
      let shown = change.applied(to: current.value)
      switch unsent?.kind {
      case kinds.create?:
        return .rewrite(kind: kinds.create, payload: try Self.payload(shown.draft), showing: shown)
      case let kind? where kinds.edits.contains(kind):
        let earlier = try JSONDecoder().decode(Item.Edit.self, from: unsent?.payload ?? Data())
        return .rewrite(
          kind: kinds.edit, payload: try Self.payload(earlier.then(change)), showing: shown)
      default:
        return .append(kind: kinds.edit, payload: try Self.payload(change), showing: shown)
      }
    }
    return made?.entry
  }

  /// Deletes the item `reference` names on the device and, unless `offline`, on the server:
  /// one made here and never sent is withdrawn (nothing is sent); a change to it not yet sent
  /// becomes the deletion; else the deletion is a change of its own, after those before it.
  /// - Returns: nil when the device does not have the item (or has it as deleted already).
  /// - Throws: ``AmbiguousKey`` as ``edit(_:offline:_:)`` does.
  public func delete(_ reference: ItemReference<Item.ID>, offline: Bool = false) async throws
    -> Deletion?
  {
    let (none, kinds) = (Data("{}".utf8), kinds)
    let made = try await change(Self.key(reference), offline: offline) { current, unsent in
      guard let current, !current.deleted else { return nil }
      guard let unsent else { return .append(kind: kinds.delete, payload: none, showing: nil) }
      return unsent.kind == kinds.create
        ? .discard : .rewrite(kind: kinds.delete, payload: none, showing: nil)
    }
    switch made {
    case nil: return nil
    case (.discard, _)?: return .withdrawn
    case (_, nil)?: return .deleted
    case (_, let entry?)?: return .kept(entry)
    }
  }

  /// The server deleted the item `reference` names (the app deleted it online): the device
  /// forgets it, unless a change to it waits (then that change meets the deletion when sent).
  /// - Returns: Whether the device had it and forgot it.
  @discardableResult
  public func forget(_ reference: ItemReference<Item.ID>) async throws -> Bool {
    try await store().forget(Self.key(reference))
  }

  /// Keeps a change to the item under `key` as `plan` decides from what the device has at that
  /// moment (``LocalStore/enqueue(_:_:)``), then, unless `offline` (or the device has no
  /// route), sends it now — or leaves that to a sync already running.
  /// - Returns: The plan carried out (nil: none, or it named a change not yet sent that there
  ///   was none of) and the item as the device now has it (nil: no longer kept).
  private func change(
    _ key: String, offline: Bool,
    _ plan: @escaping @Sendable (StoredRecord<Item>?, OutboxEntry?) throws -> OutboxPlan<Item>?
  ) async throws -> (plan: OutboxPlan<Item>, entry: Entry?)? {
    let store = await store()
    // The store says what it kept, not what was asked: the plan is this call's own.
    let asked = Lock<(plan: OutboxPlan<Item>?, hadUnsent: Bool)>((nil, false))
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

  /// Unless `offline` (or the device has no route), sends `entry` alone now — a command about
  /// one item never sends another's — and says how its item stands (nil: no longer kept).
  /// Kept without a send, the item is `shown`: what this change made of it, not what a change
  /// made since in another process did.
  private func sent(
    _ entry: OutboxEntry, from store: LocalStore<Item>, offline: Bool, shown: Item?
  ) async throws -> Entry? {
    let sending = !offline && connectivity?.isOnline ?? true
    if sending {
      do { _ = try await sync(store, only: [entry.id], progress: nil) } catch FileError
        .syncInProgress
      {}
    }
    guard let key = entry.recordKey, let record = try await store.record(key) else { return nil }
    let waiting = record.status == .synced ? [] : [entry.idempotencyKey]
    var kept = Entry(key: key, record, changes: waiting)
    if !sending, let shown { kept.item = shown }
    return kept
  }

  static func payload(_ value: some Encodable) throws -> Data { try JSONEncoder().encode(value) }
}
