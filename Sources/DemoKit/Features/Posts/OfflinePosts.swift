import Foundation
import Strata

/// Posts kept on this device beside the API (an ``OfflineCollection`` of posts): written
/// offline as pending, created by ``sync()`` with their idempotency key.
public struct OfflinePosts: Sendable {
  /// A post as the device has it (id 0 until the server numbers it), with its status.
  public typealias Item = OfflineCollection<Post>.Entry

  /// The outbox kind of a post creation.
  public static let createKind = "post.create"

  public let collection: OfflineCollection<Post>
  private let repository: any PostsRepository
  private let analytics: any Analytics

  /// Posts kept in `store`, sent through `repository`.
  public init(
    store: LocalStore<Post>, repository: any PostsRepository, connectivity: Connectivity? = nil,
    maxAttempts: Int = 5, analytics: any Analytics = NoAnalytics()
  ) {
    self.repository = repository
    self.analytics = analytics
    collection = OfflineCollection(
      store: store, connectivity: connectivity, maxAttempts: maxAttempts
    ) { entry in
      let draft = try JSONDecoder().decode(PostDraft.self, from: entry.payload)
      return .init(
        key: entry.idempotencyKey,
        value: try await repository.create(draft, idempotencyKey: entry.idempotencyKey))
    }
  }

  /// What the device has, newest change first.
  public func local() async throws -> [Item] { try await collection.local() }

  /// Fetches a page and keeps it (local changes stay), then returns the local list.
  public func refresh(limit: Int = 10, skip: Int = 0) async throws -> [Item] {
    let page = try await repository.list(limit: limit, skip: skip)
    return try await collection.refresh(with: page.items.map { ("post-\($0.id)", $0) })
  }

  /// Keeps `draft` (trimmed) as a pending post and, unless `offline`, sends it at once.
  /// - Throws: ``ValidationError`` before anything is kept, for a post ``PostRules`` refuses.
  public func create(_ draft: PostDraft, offline: Bool = false) async throws -> Item {
    let draft = try PostRules.validated(draft)
    let item = try await collection.change(
      kind: Self.createKind, payload: try JSONEncoder().encode(draft),
      shown: Post(id: 0, title: draft.title, body: draft.body, userId: draft.userId),
      offline: offline)
    analytics.track(
      "post_created",
      [
        "user_id": .count(draft.userId), "offline": .flag(item.status == .pending),
      ])
    return item
  }

  /// Sends every pending change in order (see ``OfflineCollection/sync(progress:)``).
  public func sync(progress: (@Sendable (LocalStore<Post>.Progress) -> Void)? = nil) async throws
    -> [LocalStore<Post>.Outcome]
  {
    let outcomes = try await collection.sync(progress: progress)
    analytics.track("sync_completed", SyncCounts(outcomes).properties(kind: "posts"))
    return outcomes
  }

  /// Every change, oldest first.
  public func outbox() async throws -> [OutboxEntry] { try await collection.outbox() }
}
