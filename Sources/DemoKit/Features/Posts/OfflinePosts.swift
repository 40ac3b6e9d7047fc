import Foundation
import Strata

/// Posts kept on this device beside the API: the list is read from the store first and
/// refreshed from the server (stale-while-revalidate); a post created offline — or when the
/// server cannot be reached — is kept as `pending` at once and sent by ``sync()``, with the
/// `Idempotency-Key` fixed when it was made, so a replay can never create it twice.
public actor OfflinePosts {
  /// A post as the device has it, with where it stands with the server.
  public struct Item: Sendable, Equatable {
    /// The post (id 0 until the server numbers it).
    public var post: Post
    /// Where it stands.
    public var status: SyncStatus
    /// The server's refusal, for `failed`.
    public var message: String?
  }

  /// The outbox kind of a post creation.
  public static let createKind = "post.create"

  private let store: LocalStore<Post>
  private let repository: any PostsRepository
  private let connectivity: Connectivity?

  /// Posts kept in `store`, sent through `repository`; `connectivity` says when to queue
  /// without trying.
  public init(
    store: LocalStore<Post>, repository: any PostsRepository, connectivity: Connectivity? = nil
  ) {
    self.store = store
    self.repository = repository
    self.connectivity = connectivity
  }

  /// What the device has, newest change first: shown at once, before any request.
  /// - Throws: `DocumentFile.Failure` for an unreadable store.
  public func local() async throws -> [Item] {
    try await store.records().map {
      Item(post: $0.record.value, status: $0.record.status, message: $0.record.message)
    }
  }

  /// Fetches a page and keeps it (local changes stay), then returns the local list.
  /// - Throws: `NetworkError`; the store's failure.
  public func refresh(limit: Int = 10, skip: Int = 0) async throws -> [Item] {
    let page = try await repository.list(limit: limit, skip: skip)
    try await store.replaceSynced(with: page.items.map { ("post-\($0.id)", $0) })
    return try await local()
  }

  /// Keeps `draft` as a pending post and, unless `offline` (or the device has no route),
  /// sends the outbox at once. A send that cannot reach the server leaves it pending.
  /// - Returns: The post as the device now has it.
  /// - Throws: The store's failure (never a network error: the post is kept either way).
  public func create(_ draft: PostDraft, offline: Bool = false) async throws -> Item {
    let entry = try await store.enqueue(
      kind: Self.createKind, payload: try JSONEncoder().encode(draft))
    let provisional = Post(id: 0, title: draft.title, body: draft.body, userId: draft.userId)
    try await store.put(provisional, key: entry.idempotencyKey, status: .pending)
    if !offline, connectivity?.isOnline ?? true { _ = try await sync() }
    let record = try await store.record(entry.idempotencyKey)
    return Item(
      post: record?.value ?? provisional, status: record?.status ?? .pending,
      message: record?.message)
  }

  /// Sends every pending change in the order it was made (see `LocalStore.sync`).
  /// - Returns: What each change came to.
  public func sync() async throws -> [LocalStore<Post>.Outcome] {
    let repository = self.repository
    return try await store.sync(
      send: { entry in
        let draft = try JSONDecoder().decode(PostDraft.self, from: entry.payload)
        return try JSONEncoder().encode(
          try await repository.create(draft, idempotencyKey: entry.idempotencyKey))
      },
      settle: { entry, answer in
        (entry.idempotencyKey, try JSONDecoder().decode(Post.self, from: answer))
      })
  }

  /// Every change in the outbox, oldest first.
  public func outbox() async throws -> [OutboxEntry] { try await store.outbox() }
}
