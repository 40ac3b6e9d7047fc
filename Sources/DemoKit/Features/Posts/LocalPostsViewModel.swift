import Observation
import Strata

/// The posts screen of an offline-first app: what the device has is shown at once, then the
/// server's page replaces the synced part (stale-while-revalidate); each post shows its sync
/// status, and a post written offline appears at once as pending.
@MainActor @Observable
public final class LocalPostsViewModel: LoadStateOwner {
  /// The posts, with their status.
  public private(set) var items: [OfflinePosts.Item] = []
  /// Whether ``items`` are the device's only (the refresh has not answered, or failed).
  public private(set) var isStale = true
  /// A refresh or sync under way, or the last one's failure.
  public var state = LoadState.idle
  @ObservationIgnored private let posts: OfflinePosts

  /// A screen over `posts`.
  public nonisolated init(posts: OfflinePosts) { self.posts = posts }

  /// Shows the device's posts, then refreshes them from the server.
  public func load(limit: Int = 10) async {
    _ = await loading {
      items = try await posts.local()
      isStale = true
      items = try await posts.refresh(limit: limit)
      isStale = false
    }
  }

  /// Keeps ``items`` up to date with what the device keeps, whoever changes it — a `sync` in
  /// another process, a share extension, another window — until the task running it is
  /// cancelled or the owner signs out.
  public func follow() async {
    for await entries in await posts.collection.updates() {
      items = entries
    }
  }

  /// Keeps the post and shows it at once as pending; sends it unless `offline`.
  public func create(_ draft: PostDraft, offline: Bool = false) async {
    _ = await loading {
      _ = try await posts.create(draft, offline: offline)
      items = try await posts.local()
    }
  }

  /// Settles `item`'s conflict with the server's newer version — the user chose — and shows
  /// the outcome: `.mine` is sent again at once, on the server's version; `.theirs` shows the
  /// server's post.
  public func resolve(_ item: OfflinePosts.Item, keeping choice: ConflictResolution) async {
    _ = await loading {
      let id = item.localId.map(ItemID.local) ?? .server(item.item.id)
      guard try await posts.resolve(id, keeping: choice) else { return }
      if choice == .mine { _ = try await posts.sync() }
      items = try await posts.local()
    }
  }

  /// Sends what is pending and shows the outcome.
  public func sync() async {
    _ = await loading {
      _ = try await posts.sync()
      items = try await posts.local()
    }
  }
}
