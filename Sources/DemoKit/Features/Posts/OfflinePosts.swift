import Foundation
import Strata

/// Posts kept on this device beside the API (an ``OfflineCollection`` of posts): created,
/// edited and deleted offline as pending, sent by ``sync()`` each under its own idempotency key.
///
/// A change to a post made here whose creation has not been sent yet folds into it: an edit
/// makes the creation carry the new text (one `POST`), a deletion withdraws it (nothing is
/// sent). A change to one whose creation is on its way (a sync is sending it) follows it: it
/// goes once the server has numbered the post, to that number, and fails if the creation does.
public struct OfflinePosts: OfflineFeature {
  /// A post as the device has it (id 0 until the server numbers it), with its status.
  public typealias Item = OfflineCollection<Post>.Entry

  public static let name = "post"
  /// The outbox kinds: a creation (a ``PostDraft``), an edit (a ``PostEdit``), a deletion.
  public static let createKind = "post.create"
  public static let editKind = "post.update"
  public static let deleteKind = "post.delete"

  public let collection: OfflineCollection<Post>
  private let repository: any PostsRepository
  private let analytics: any Analytics

  /// Posts kept in the store `stores` opens for the owner signed in now (`owner`), sent
  /// through `repository`. An edit or deletion never overwrites a newer version unseen: it is
  /// checked against the post as the server has it just before the write (its version, or
  /// its fields); a field changed on both sides is a conflict, which `conflicts` settles
  /// (default: the change waits, conflicted, for its user).
  public init(
    stores: @escaping @Sendable (DataOwner) -> LocalStore<Post>,
    owner: @escaping @Sendable () async -> DataOwner, repository: any PostsRepository,
    connectivity: Connectivity? = nil, maxAttempts: Int = 5, conflicts: ConflictPolicy = .ask,
    analytics: any Analytics = NoAnalytics()
  ) {
    (self.repository, self.analytics) = (repository, analytics)
    collection = OfflineCollection(
      stores: stores, owner: owner, name: "posts", connectivity: connectivity,
      maxAttempts: maxAttempts, conflicts: conflicts, analytics: analytics
    ) { entry in try await Self.send(entry, to: repository) }
  }

  private static func send(_ entry: OutboxEntry, to repository: any PostsRepository)
    async throws -> OfflineCollection<Post>.Settled?
  {
    let key = entry.idempotencyKey
    if entry.kind == createKind {
      let post = try await repository.create(
        JSONDecoder().decode(PostDraft.self, from: entry.payload), idempotencyKey: key)
      return .init(key: Self.key(post.id), value: post)
    }
    return try await send(entry, edits: [editKind], current: repository.latest(id:)) {
      id, payload, version in
      try await repository.update(
        id: id, JSONDecoder().decode(PostEdit.self, from: payload), idempotencyKey: key,
        ifMatch: version)
    } delete: {
      try await repository.delete(id: $0, idempotencyKey: key, ifMatch: $1)
    }
  }

  /// Fetches a page and keeps it (local changes stay), then returns the local list.
  public func refresh(limit: Int = 10, skip: Int = 0) async throws -> [Item] {
    let page = try await repository.list(limit: limit, skip: skip)
    return try await keep(page.items)
  }

  /// Keeps `draft` (trimmed) as a pending post under a local id of its own and, unless
  /// `offline`, sends it at once.
  /// - Throws: ``ValidationError`` before anything is kept, for a post ``PostRules`` refuses.
  public func create(_ draft: PostDraft, offline: Bool = false) async throws -> Item {
    let draft = try PostRules.validated(draft)
    let item = try await collection.make(
      kind: Self.createKind, payload: try Self.payload(draft),
      shown: Post(id: 0, title: draft.title, body: draft.body, userId: draft.userId),
      offline: offline)
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
    let made = try await Self.addressing(id) {
      try await collection.change($0, offline: offline) { current, unsent in
        guard let current, !current.deleted else { throw NotOnDevice("post", id) }
        let shown = edit.applied(to: current.value)
        switch unsent?.kind {
        case Self.createKind?:
          let draft = PostDraft(title: shown.title, body: shown.body, userId: shown.userId)
          return .rewrite(
            kind: Self.createKind, payload: try Self.payload(draft), showing: shown)
        case Self.editKind?:
          let earlier = try JSONDecoder().decode(PostEdit.self, from: unsent?.payload ?? Data())
          return .rewrite(
            kind: Self.editKind, payload: try Self.payload(earlier.then(edit)),
            showing: shown)
        default:
          return .append(kind: Self.editKind, payload: try Self.payload(edit), showing: shown)
        }
      }
    }
    guard let item = made?.entry else { throw NotOnDevice("post", id) }
    return item
  }
}
