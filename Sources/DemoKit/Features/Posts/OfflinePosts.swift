import Foundation
import Strata

/// Posts kept on this device beside the API (a ``SyncedCollection`` of posts): created,
/// edited and deleted offline as pending, sent by ``sync()`` each under its own idempotency key,
/// folded, ordered and checked for conflicts as the collection says. What is the demo's own:
/// ``PostRules`` and the analytics events.
public struct OfflinePosts: OfflineFeature {
  /// A post as the device has it (id 0 until the server numbers it), with its status.
  public typealias Item = SyncedCollection<Post>.Entry

  public let collection: SyncedCollection<Post>
  public let analytics: any Analytics

  /// Posts kept in the store `stores` opens for the owner signed in now (`owner`), sent
  /// through `repository`; a field changed on both sides is a conflict, which `conflicts`
  /// settles (default: the change waits, conflicted, for its user).
  public init(
    stores: @escaping @Sendable (DataOwner) -> LocalStore<Post>,
    owner: @escaping @Sendable () async -> DataOwner, repository: any PostsRepository,
    connectivity: Connectivity? = nil, maxAttempts: Int = 5, conflicts: ConflictPolicy = .ask,
    analytics: any Analytics = NoAnalytics()
  ) {
    self.analytics = analytics
    collection = SyncedCollection(
      api: repository, stores: stores, owner: owner, connectivity: connectivity,
      maxAttempts: maxAttempts, conflicts: conflicts)
  }

  /// Keeps `draft` (trimmed) as a pending post under a local id of its own and, unless
  /// `offline`, sends it at once.
  /// - Throws: ``ValidationError`` before anything is kept, for a post ``PostRules`` refuses.
  public func create(_ draft: PostDraft, offline: Bool = false) async throws -> Item {
    let draft = try PostRules.validated(draft)
    let item = try await collection.create(draft, offline: offline)
    analytics.track(
      "post_created", ["user_id": .count(draft.userId), "offline": .flag(item.status == .pending)])
    return item
  }

  /// Edits post `id` as the device has it (folded into its creation or an edit not yet sent)
  /// and, unless `offline`, sends it.
  /// - Throws: ``ValidationError`` first, for an edit ``PostRules`` refuses; ``NotOnDevice``
  ///   when the device does not have the post (or has it only as deleted).
  public func edit(_ id: ItemID, _ edit: PostEdit, offline: Bool = false) async throws -> Item {
    let edit = try PostRules.validated(edit)
    return try await change(id, offline: offline) { _ in edit }
  }
}
