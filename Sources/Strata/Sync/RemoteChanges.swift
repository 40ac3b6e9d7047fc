/// What changed on a server after a cursor, as an API that can list its changes answers
/// (``RemoteCollection/changes(after:)``): a pull then reads only these, not every page.
///
/// ```swift
/// func changes(after cursor: String?) async throws -> RemoteChanges<Card>? {
///   let feed = try await network.send(
///     Request<CardFeed>(path: "cards/changes", query: ["after": cursor])
///   ).value
///   return RemoteChanges(
///     changed: feed.cards, deleted: feed.deleted, cursor: feed.next, more: feed.more)
/// }
/// ```
public struct RemoteChanges<Item: SyncedItem>: Sendable {
  /// The items made or changed after the cursor, as the server has them now.
  public var changed: [Item]
  /// The ids of the items deleted after the cursor.
  public var deleted: [Item.ID]
  /// Where the next listing starts: kept with what this one brought, in the same write.
  public var cursor: String
  /// Whether more changes wait after `cursor`: asked for at once, in the same pull.
  public var more: Bool

  public init(changed: [Item], deleted: [Item.ID] = [], cursor: String, more: Bool = false) {
    (self.changed, self.deleted, self.cursor, self.more) = (changed, deleted, cursor, more)
  }
}
