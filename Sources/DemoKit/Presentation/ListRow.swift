import Foundation
import Strata

/// One item on a list, by the one id it has — the server's, or the local one this device gave
/// it until the server numbers it — with where it stands: `pending` while the server has not
/// confirmed it (a "saving…" or "waiting to sync" badge), `failed` with the server's reason.
public struct ListRow<Item: Sendable & Equatable>: Identifiable, Equatable, Sendable {
  public let id: ItemID
  public var item: Item
  public var status: SyncStatus
  /// Why the server refused it, for `failed`.
  public var message: String?

  public init(id: ItemID, item: Item, status: SyncStatus = .synced, message: String? = nil) {
    (self.id, self.item, self.status, self.message) = (id, item, status, message)
  }
}

extension Array {
  /// Shows `entry` under `id`: in place of the row it had, else on top; off the list when
  /// deleted and not refused.
  mutating func show<Item>(_ entry: SyncedCollection<Item>.Entry, as id: ItemID)
  where Element == ListRow<Item> {
    let row = ListRow(id: id, item: entry.item, status: entry.status, message: entry.message)
    let index = firstIndex { $0.id == id }
    if entry.deleted, entry.status != .failed {
      if let index { remove(at: index) }
    } else if let index {
      self[index] = row
    } else {
      insert(row, at: 0)
    }
  }

  /// The device's changes not yet synced, over a page just loaded: each in place of the row
  /// it changes, else on top.
  mutating func showWaiting<Item>(_ entries: [SyncedCollection<Item>.Entry], id: (Item) -> Int)
  where Element == ListRow<Item> {
    for entry in entries.reversed() where entry.status != .synced {
      show(entry, as: entry.localId.map(ItemID.local) ?? .server(id(entry.item)))
    }
  }

  /// What the device keeps now, over the rows: each row it has shows it as kept (a sync
  /// elsewhere turns `pending` to `synced`; one deleted there leaves), and a change not yet
  /// synced that is not on the list goes on top; what is synced and not on the list stays
  /// off it (it is not on this page).
  mutating func follow<Item: CollectionItem>(_ entries: [SyncedCollection<Item>.Entry])
  where Element == ListRow<Item> {
    for entry in entries.reversed() {
      let id = entry.localId.map(ItemID.local) ?? .server(entry.item.id)
      guard entry.status != .synced || contains(where: { $0.id == id }) else { continue }
      show(entry, as: id)
    }
  }

  mutating func replace<Item>(_ id: ItemID, with row: ListRow<Item>)
  where Element == ListRow<Item> {
    if let index = firstIndex(where: { $0.id == id }) { self[index] = row }
  }

  /// Whether the row `id` waits for the server (a change to it goes after that one).
  func isWaiting<Item>(_ id: ItemID) -> Bool where Element == ListRow<Item> {
    contains { $0.id == id && $0.status != .synced }
  }
}

extension OfflineRoute {
  /// The device's store when a change to `id` goes through it: asked, no route, a local id,
  /// or a change to it there not yet synced (`waiting`), so changes go in the order made.
  func device(for id: ItemID, keepOffline: Bool, waiting: Bool) throws -> Store? {
    if let device = try device(keepOffline: keepOffline) { return device }
    if case .local = id { return store }
    return waiting ? store : nil
  }

  /// Whether a change kept on the device is only kept (not sent at once).
  func keeps(_ keepOffline: Bool) -> Bool { keepOffline || connectivity?.isOnline == false }
}

/// What ``PostsViewModel`` and ``TodosViewModel`` share: rows changed optimistically over a
/// page of a collection, and the device's offline feature that decides where a change goes.
@MainActor
protocol OptimisticList: LoadStateOwner {
  associatedtype Device: OfflineFeature
  var rows: [ListRow<Device.Value>] { get set }
  /// The page last loaded (totals for a footer).
  var page: Page<Device.Value>? { get set }
  var repo: any CollectionRepository<Device.Value> { get }
  var offline: OfflineRoute<Device> { get }
}

extension OptimisticList {
  /// Loads `limit` items after the first `skip` and shows them with the device's changes not
  /// yet synced over them (one deleted there is off the list) — and keeps the page on the
  /// device, so its items can change offline.
  /// Keeps the rows up to date with what the device keeps, whoever changes it — a `sync` in
  /// another process, a share extension, another window — until the task running it is
  /// cancelled or the owner signs out; nothing without the offline feature.
  func followDevice() async {
    guard let device = offline.store else { return }
    for await entries in await device.collection.updates() { rows.follow(entries) }
  }

  func loadPage(limit: Int, skip: Int) async {
    let page = await loading { try await repo.list(limit: limit, skip: skip) }
    guard let page else { return }
    self.page = page
    let items = page.items
    rows = items.map { ListRow(id: .server($0.id), item: $0) }
    guard let device = offline.store else { return }
    do {
      try await device.keep(items)
      rows.showWaiting(try await device.local(), id: \.id)
    } catch {
      state = .failed(
        error, Localized.current("failure.readKept", ["things": Device.name + "s"]))
    }
  }

  /// Shows `draft` on top at once, marked pending, and creates it under an idempotency key of
  /// its own (a lost answer or a 5xx is retried, and the item still made once where the server
  /// honours the key): the server's item replaces the guess, or the guess goes and the error
  /// is thrown.
  func createShown(_ draft: Device.Value.Draft) async throws -> Device.Value {
    let guess = ItemID.local(SyncedCollection<Device.Value>.newLocalId())
    rows.insert(ListRow(id: guess, item: Device.Value(draft), status: .pending), at: 0)
    do {
      let saved = try await repo.create(draft, idempotencyKey: UUID().uuidString)
      rows.replace(guess, with: ListRow(id: .server(saved.id), item: saved))
      return saved
    } catch {
      rows.removeAll { $0.id == guess }
      throw error
    }
  }

  /// Takes `id` off the list at once, then deletes it: through the device when the route says
  /// (asked, no route, a local id, a change to it waiting), else on the server by its number,
  /// under a key of its own; back in its place on failure (the error thrown).
  func deleteShown(_ id: ItemID, keepOffline: Bool) async throws
    -> SyncedCollection<Device.Value>.Deletion
  {
    let waiting = rows.isWaiting(id)
    let index = rows.firstIndex { $0.id == id }
    let removed = index.map { rows.remove(at: $0) }
    do {
      if let device = try offline.device(for: id, keepOffline: keepOffline, waiting: waiting) {
        let deletion = try await device.delete(id, offline: offline.keeps(keepOffline))
        if case .kept(let entry) = deletion, entry.status == .failed { rows.show(entry, as: id) }
        return deletion
      }
      guard case .server(let number) = id else { throw NotOnDevice(Device.name, id) }
      try await repo.delete(id: number, idempotencyKey: UUID().uuidString)
      // Gone from the server: the device's copy goes too (a page kept it as synced).
      try await offline.store?.collection.forget(id)
      return .deleted
    } catch {
      if let removed, let index { rows.insert(removed, at: min(index, rows.count)) }
      throw error
    }
  }
}
