import Foundation
import Observation
import Strata

/// A list of posts and every change to it — create, edit, delete — made optimistically: the
/// list shows the change at once, marked pending; the server confirms it (its answer replaces
/// the guess) or refuses it (the list goes back, and the error is thrown). With the offline
/// feature, a change is kept on the device when asked or without a route, and the device's
/// changes not yet synced are on the list with their badge (pending, or failed with the
/// server's reason).
@MainActor @Observable
public final class PostsViewModel: OptimisticList {
  /// One post on the list (see ``ListRow``).
  public typealias Row = ListRow<Post>

  /// What the list shows, the changes not yet confirmed included.
  public internal(set) var rows: [Row] = []
  /// The page last loaded (totals for a footer).
  public internal(set) var page: Page<Post>?
  /// A fetch under way, or the last request's failure.
  public var state = LoadState.idle
  @ObservationIgnored let repo: any PostsRepository
  @ObservationIgnored private let analytics: any Analytics
  /// Where posts are kept while offline, and when.
  @ObservationIgnored let offline: OfflineRoute<OfflinePosts>

  /// A list read and changed through `repo`; creations are reported to `analytics`. With
  /// `offline`, a post written without a route or on request is kept on the device.
  public nonisolated init(
    repo: any PostsRepository, offline: OfflineRoute<OfflinePosts> = .off,
    analytics: any Analytics = NoAnalytics()
  ) {
    (self.repo, self.offline, self.analytics) = (repo, offline, analytics)
  }

  /// Loads `limit` posts after the first `skip`, with the device's changes not yet synced on
  /// top (a post deleted there is off the list) — and keeps the page on the device, so its
  /// posts can change offline.
  public func load(limit: Int = 10, skip: Int = 0) async {
    await loadPage(limit: limit, skip: skip)
  }

  /// Keeps ``rows`` up to date with the device's posts, whoever changes them (a `sync` in
  /// another process turns a pending row synced), until the task running it is cancelled or
  /// the owner signs out; returns at once without the offline feature.
  public func follow() async { await followDevice() }

  /// Creates a post: the one call for "new post", from a screen's flow or a command line.
  /// - `draft` is checked once against ``PostRules`` (a ``ValidationError`` before anything
  ///   is shown, kept or sent);
  /// - it is kept on this device as pending, for a sync to send, when `keepOffline` or the
  ///   device has no route — if the offline feature is on (`keepOffline` without it throws
  ///   ``FeatureOff``; without a route and without it, the send fails as offline);
  /// - otherwise it is shown at the top at once and sent with an idempotency key of its own,
  ///   so a lost answer or a 5xx is retried and the post is still made once: the server's post
  ///   replaces the guess, or the guess goes away and the error is thrown.
  /// - Returns: The post as it now stands: `synced` (the server's) or `pending` (kept here,
  ///   with its local id).
  @discardableResult
  public func create(_ draft: PostDraft, keepOffline: Bool = false) async throws
    -> OfflinePosts.Item
  {
    if let device = try offline.device(keepOffline: keepOffline) {
      let kept = try await device.create(draft, offline: true)
      rows.show(kept, as: kept.localId.map(ItemID.local) ?? .server(kept.item.id))
      return kept
    }
    let draft = try PostRules.validated(draft)
    do {
      let saved = try await createShown(draft)
      analytics.track(
        "post_created",
        ["post_id": .count(saved.id), "user_id": .count(draft.userId), "offline": .flag(false)])
      return OfflinePosts.Item(item: saved, status: .synced)
    } catch {
      analytics.track("post_create_failed", AnalyticsValue.failure(error))
      throw error
    }
  }

  /// Edits post `id`: kept on the device (see ``create(_:keepOffline:)``) when asked, without
  /// a route, or when the device has a change to it not yet synced (a post made offline
  /// included), so changes go in the order they were made; else shown at once, sent under a
  /// key of its own, and put back on failure (the error thrown).
  /// - Throws: ``ValidationError`` first; ``NotOnDevice`` for a local id the device lacks.
  @discardableResult
  public func edit(_ id: ItemID, _ edit: PostEdit, keepOffline: Bool = false) async throws
    -> OfflinePosts.Item
  {
    let edit = try PostRules.validated(edit)
    let waiting = rows.isWaiting(id)
    if let device = try offline.device(for: id, keepOffline: keepOffline, waiting: waiting) {
      let kept = try await device.edit(id, edit, offline: offline.keeps(keepOffline))
      rows.show(kept, as: id)
      return kept
    }
    guard case .server(let number) = id else { throw NotOnDevice("post", id) }
    let previous = rows.first { $0.id == id }
    if let previous {
      rows.replace(id, with: Row(id: id, item: edit.applied(to: previous.item), status: .pending))
    }
    do {
      let saved = try await repo.update(id: number, edit, idempotencyKey: UUID().uuidString)
      rows.replace(id, with: Row(id: id, item: saved))
      return OfflinePosts.Item(item: saved, status: .synced)
    } catch {
      if let previous { rows.replace(id, with: previous) }
      throw error
    }
  }

  /// Deletes post `id`, routed as ``edit(_:_:keepOffline:)`` is: off the list at once, back
  /// in its place on failure (the error thrown). A post made offline and never sent is
  /// withdrawn: nothing is sent.
  @discardableResult
  public func delete(_ id: ItemID, keepOffline: Bool = false) async throws
    -> SyncedCollection<Post>.Deletion
  {
    try await deleteShown(id, keepOffline: keepOffline)
  }
}
