import Foundation
import Strata

/// Posts kept on this device beside the API (an ``OfflineCollection`` of posts): written
/// offline as pending, created by ``sync()`` with their idempotency key.
public struct OfflinePosts: OfflineFeature {
  /// A post as the device has it (id 0 until the server numbers it), with its status.
  public typealias Item = OfflineCollection<Post>.Entry

  /// The outbox kind of a post creation.
  public static let createKind = "post.create"

  public let collection: OfflineCollection<Post>
  private let repository: any PostsRepository
  private let analytics: any Analytics

  /// Posts kept in the store `stores` opens for the owner signed in now (`owner`), sent
  /// through `repository`.
  public init(
    stores: @escaping @Sendable (DataOwner) -> LocalStore<Post>,
    owner: @escaping @Sendable () async -> DataOwner, repository: any PostsRepository,
    connectivity: Connectivity? = nil, maxAttempts: Int = 5,
    analytics: any Analytics = NoAnalytics()
  ) {
    (self.repository, self.analytics) = (repository, analytics)
    collection = OfflineCollection(
      stores: stores, owner: owner, name: "posts", connectivity: connectivity,
      maxAttempts: maxAttempts,
      analytics: analytics
    ) { entry in
      let draft = try JSONDecoder().decode(PostDraft.self, from: entry.payload)
      return .init(
        key: entry.idempotencyKey,
        value: try await repository.create(draft, idempotencyKey: entry.idempotencyKey))
    }
  }

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
}
