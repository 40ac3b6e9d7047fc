import Foundation
import Observation
import Strata

/// A list of posts and every change to it — create, rename, delete — made optimistically:
/// the list shows the change at once, the server confirms it (its answer replaces the guess)
/// or refuses it (the list goes back; ``create(_:keepOffline:)`` throws the error, a rename or
/// a delete shows it in ``state``).
@MainActor @Observable
public final class PostsViewModel: LoadStateOwner {
  /// What the list shows, the changes not yet confirmed included.
  public private(set) var posts: [Post] = []
  /// The page last loaded (totals for a footer).
  public private(set) var page: Page<Post>?
  /// Posts whose change the server has not confirmed yet (show them as "saving…").
  public private(set) var pending: Set<Int> = []
  /// A fetch under way, or the last request's failure.
  public var state = LoadState.idle
  @ObservationIgnored private let repo: any PostsRepository
  @ObservationIgnored private let analytics: any Analytics
  /// Where posts are kept while offline, and when.
  @ObservationIgnored private let offline: OfflineRoute<OfflinePosts>
  /// Ids for posts the server has not numbered yet: negative, so they never clash.
  @ObservationIgnored private var lastProvisionalID = 0

  /// A list read and changed through `repo`; creations are reported to `analytics`. With
  /// `offline`, a post written without a route or on request is kept on the device.
  public nonisolated init(
    repo: any PostsRepository, offline: OfflineRoute<OfflinePosts> = .off,
    analytics: any Analytics = NoAnalytics()
  ) {
    (self.repo, self.offline, self.analytics) = (repo, offline, analytics)
  }

  /// Loads `limit` posts after the first `skip`.
  public func load(limit: Int = 10, skip: Int = 0) async {
    let page = await loading { try await repo.list(limit: limit, skip: skip) }
    guard let page else { return }
    self.page = page
    posts = page.items
  }

  /// Creates a post: the one call for "new post", from a screen's flow or a command line.
  /// - `draft` is checked once against ``PostRules`` (a ``ValidationError`` before anything
  ///   is shown, kept or sent);
  /// - it is kept on this device as pending, for a sync to send, when `keepOffline` or the
  ///   device has no route — if the offline feature is on (`keepOffline` without it throws
  ///   ``FeatureOff``; without a route and without it, the send fails as offline);
  /// - otherwise it is shown at the top at once and sent with an idempotency key of its own,
  ///   so a lost answer or a 5xx is retried and the post is still made once: the server's post
  ///   replaces the guess, or the guess goes away and the error is thrown.
  /// - Returns: The post as it now stands: `synced` (the server's) or `pending` (kept here).
  @discardableResult
  public func create(_ draft: PostDraft, keepOffline: Bool = false) async throws
    -> OfflinePosts.Item
  {
    if let device = try offline.device(keepOffline: keepOffline) {
      let kept = try await device.create(draft, offline: true)
      // On the list as waiting for the server, under an id of its own (a kept post has 0
      // until the server numbers it, and two of them would share it).
      lastProvisionalID -= 1
      let shown = kept.item
      posts.insert(
        Post(id: lastProvisionalID, title: shown.title, body: shown.body, userId: shown.userId),
        at: 0)
      pending.insert(lastProvisionalID)
      return kept
    }
    let draft = try PostRules.validated(draft)
    lastProvisionalID -= 1
    let provisional = Post(
      id: lastProvisionalID, title: draft.title, body: draft.body, userId: draft.userId)
    posts.insert(provisional, at: 0)
    pending.insert(provisional.id)
    defer { pending.remove(provisional.id) }
    do {
      let saved = try await repo.create(draft, idempotencyKey: UUID().uuidString)
      replace(provisional.id, with: saved)
      analytics.track(
        "post_created",
        ["post_id": .count(saved.id), "user_id": .count(draft.userId), "offline": .flag(false)])
      return OfflinePosts.Item(item: saved, status: .synced)
    } catch {
      analytics.track("post_create_failed", AnalyticsValue.failure(error))
      posts.removeAll { $0.id == provisional.id }
      throw error
    }
  }

  /// Shows the new title at once, then saves it; the old title comes back on failure.
  /// - Returns: Whether the server kept the change.
  @discardableResult
  public func rename(id: Int, title: String) async -> Bool {
    state = .idle
    guard let index = posts.firstIndex(where: { $0.id == id }) else { return false }
    let previous = posts[index]
    posts[index] = previous.retitled(title)
    pending.insert(id)
    defer { pending.remove(id) }
    do {
      replace(
        id, with: try await repo.update(id: id, title: title, idempotencyKey: UUID().uuidString))
      return true
    } catch {
      replace(id, with: previous)
      state = .failed(error, "Could not rename post \(id)")
      return false
    }
  }

  /// Takes the post off the list at once, then deletes it; it comes back in its place on failure.
  /// - Returns: Whether the server deleted it.
  @discardableResult
  public func delete(id: Int) async -> Bool {
    state = .idle
    guard let index = posts.firstIndex(where: { $0.id == id }) else { return false }
    let removed = posts.remove(at: index)
    pending.insert(id)
    defer { pending.remove(id) }
    do {
      try await repo.delete(id: id, idempotencyKey: UUID().uuidString)
      return true
    } catch {
      posts.insert(removed, at: min(index, posts.count))
      state = .failed(error, "Could not delete post \(id)")
      return false
    }
  }

  private func replace(_ id: Int, with post: Post) {
    if let index = posts.firstIndex(where: { $0.id == id }) { posts[index] = post }
  }

}

extension Post {
  /// The same post with another title.
  func retitled(_ title: String) -> Post {
    Post(
      id: id, title: title, body: body, userId: userId, tags: tags, reactions: reactions,
      views: views)
  }
}
