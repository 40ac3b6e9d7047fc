import Foundation

/// Keeping up with the server: every page read, merged under the device's changes, and what
/// the server no longer lists taken out.
extension SyncedCollection {
  /// What a ``pull(pageSize:)`` came to.
  public struct Pull: Sendable, Equatable {
    /// The items the server listed.
    public var listed: Int
    /// Whether the listing was complete (a page shorter than asked ended it): only then are
    /// items the server no longer lists taken out.
    public var complete: Bool
    /// Items taken out: deleted on the server (a deletion of the device's waiting for one of
    /// them is done).
    public var removed: Int
    /// Items the server deleted while the device had a change to them waiting: each change
    /// is ``SyncStatus/conflicted`` — `theirs` lets the item go, `mine` sends the change again.
    public var conflicted: Int

    public init(listed: Int, complete: Bool, removed: Int, conflicted: Int) {
      (self.listed, self.complete, self.removed, self.conflicted) = (
        listed, complete, removed, conflicted
      )
    }
  }

  /// Reads what the server has and merges it under the device's changes
  /// (``LocalStore/merge(_:complete:removing:cursor:)``). An API that lists its changes
  /// (``RemoteCollection/changes(after:)``) is asked for those after the cursor the last pull
  /// kept — the first time from the start, a complete listing. Any other is read page by
  /// page, `pageSize` items at a time, until a page comes back short; a listing that never
  /// ends (a server that ignores `skip`: a page with nothing new) is not complete, and takes
  /// nothing out.
  /// - Throws: what reading the server throws; nothing is merged then.
  public func pull(pageSize: Int = 100) async throws -> Pull {
    let store = await store()
    if let pulled = try await pullChanges(into: store) { return pulled }
    let size = max(1, pageSize)
    var listing = Listing<Item>()
    var complete = false
    while true {
      let page = try await api.items(limit: size, skip: listing.order.count)
      let fresh = listing.take(page)
      if page.count < size {
        complete = true
        break
      }
      if fresh == 0 { break }
    }
    return try await merge(listing, complete: complete, into: store)
  }

  /// A pull through the API's listing of changes, nil when it has none. Listings that say
  /// more waits are read in the same pull, up to `maxRounds` (a server that always says so
  /// does not hold the pull for ever); a listing from the start is complete only when read to
  /// its end, and its cursor is kept only then (a cut one starts over next time).
  private func pullChanges(into store: LocalStore<Item>) async throws -> Pull? {
    let start = try await store.changeCursor()
    guard var answer = try await api.changes(after: start) else { return nil }
    var listing = Listing<Item>()
    var rounds = 1
    while true {
      listing.take(answer.changed)
      listing.remove(answer.deleted)
      guard answer.more, rounds < Self.maxRounds,
        let next = try await api.changes(after: answer.cursor)
      else { break }
      (answer, rounds) = (next, rounds + 1)
    }
    let ended = !answer.more
    // A cursor too long to keep is dropped: the next pull asks from the last one kept.
    let fits = answer.cursor.utf8.count <= StoreSnapshot<Item>.maxCursor
    let cursor = fits && (ended || start != nil) ? answer.cursor : nil
    return try await merge(
      listing, complete: start == nil && ended, into: store, cursor: cursor)
  }

  /// How many listings of changes one pull reads at most.
  static var maxRounds: Int { 1_000 }

  private func merge(
    _ listing: Listing<Item>, complete: Bool, into store: LocalStore<Item>, cursor: String? = nil
  ) async throws -> Pull {
    let values = listing.order.compactMap { id in
      listing.items[id].map { (Self.key(.server(id)), $0) }
    }
    let count = try await store.merge(
      values, complete: complete, removing: listing.deleted.map { Self.key(.server($0)) },
      cursor: cursor)
    return Pull(
      listed: values.count, complete: complete, removed: count.removed,
      conflicted: count.conflicted)
  }

  /// When the server last listed every item (a complete ``pull(pageSize:)``); nil when it
  /// never has.
  public func lastPulled() async throws -> Date? { try await store().refreshedAt() }
}

/// The server's items as a pull reads them: each once, in the order first listed, and the
/// ids a listing of changes said were deleted (an item changed after its deletion is listed
/// again, not deleted).
private struct Listing<Item: SyncedItem> {
  var items: [Item.ID: Item] = [:]
  /// Every id listed, in the order first listed (a deleted one's item is gone from `items`).
  var order: [Item.ID] = []
  var deleted: Set<Item.ID> = []
  private var listed: Set<Item.ID> = []

  /// Takes `page` in; how many of its items were not listed before.
  @discardableResult
  mutating func take(_ page: [Item]) -> Int {
    var fresh = 0
    for item in page {
      deleted.remove(item.id)
      if items.updateValue(item, forKey: item.id) == nil { fresh += 1 }
      if listed.insert(item.id).inserted { order.append(item.id) }
    }
    return fresh
  }

  mutating func remove(_ ids: [Item.ID]) {
    for id in ids {
      items[id] = nil
      deleted.insert(id)
    }
  }
}
