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

  /// Reads every page of the server's listing, `pageSize` items at a time, until a page comes
  /// back short, and merges them under the device's changes (``LocalStore/merge(_:complete:)``).
  /// A listing that never ends (a server that ignores `skip`: a page with nothing new) is not
  /// complete, and takes nothing out.
  /// - Throws: what reading a page throws; nothing is merged then.
  public func pull(pageSize: Int = 100) async throws -> Pull {
    let size = max(1, pageSize)
    var items: [Item.ID: Item] = [:]
    var order: [Item.ID] = []
    var complete = false
    while true {
      let page = try await api.items(limit: size, skip: order.count)
      let fresh = page.filter { items.updateValue($0, forKey: $0.id) == nil }
      order += fresh.map(\.id)
      if page.count < size {
        complete = true
        break
      }
      if fresh.isEmpty { break }
    }
    let listing = order.compactMap { id in items[id].map { (Self.key(.server(id)), $0) } }
    let count = try await store().merge(listing, complete: complete)
    return Pull(
      listed: listing.count, complete: complete, removed: count.removed,
      conflicted: count.conflicted)
  }

  /// When the server last listed every item (a complete ``pull(pageSize:)``); nil when it
  /// never has.
  public func lastPulled() async throws -> Date? { try await store().refreshedAt() }
}
