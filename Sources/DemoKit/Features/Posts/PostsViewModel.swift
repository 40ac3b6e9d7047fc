import Observation
import Strata

/// A list of posts and every change to it — create, rename, delete — made optimistically:
/// the list shows the change at once, the server confirms it (its answer replaces the guess)
/// or refuses it (the list goes back, and ``error`` says what the server said).
@MainActor @Observable
public final class PostsViewModel: LoadStateOwner {
  /// What the list shows, the changes not yet confirmed included.
  public private(set) var posts: [Post] = []
  /// The page last loaded (totals for a footer).
  public private(set) var page: Page<Post>?
  /// Posts whose change the server has not confirmed yet (show them as "saving…").
  public private(set) var pending: Set<Int> = []
  /// The post created last, once the server confirmed it.
  public private(set) var created: Post?
  /// A fetch under way, or the last request's failure.
  public internal(set) var state = LoadState.idle
  @ObservationIgnored private let repo: any PostsRepository
  @ObservationIgnored private let analytics: any Analytics
  /// Ids for posts the server has not numbered yet: negative, so they never clash.
  @ObservationIgnored private var lastProvisionalID = 0

  /// A list read and changed through `repo`; creations are reported to `analytics`.
  public nonisolated init(repo: any PostsRepository, analytics: any Analytics = NoAnalytics()) {
    (self.repo, self.analytics) = (repo, analytics)
  }

  /// Loads `limit` posts after the first `skip`.
  public func load(limit: Int = 10, skip: Int = 0) async {
    let page = await loading { try await repo.list(limit: limit, skip: skip) }
    guard let page else { return }
    self.page = page
    posts = page.items
  }

  /// Shows the new post at the top at once, then creates it (a POST: sent once, never
  /// retried); the server's post replaces the guess, or the guess goes away on failure.
  /// - Returns: Whether the server created it.
  @discardableResult
  public func create(title: String, body: String, userId: Int) async -> Bool {
    state = .idle
    created = nil
    let draft: PostDraft
    do {
      draft = try PostRules.validated(PostDraft(title: title, body: body, userId: userId))
    } catch {
      state = .failed(error)  // refused before anything is shown or sent
      return false
    }
    let (title, body) = (draft.title, draft.body)
    lastProvisionalID -= 1
    let provisional = Post(id: lastProvisionalID, title: title, body: body, userId: userId)
    posts.insert(provisional, at: 0)
    pending.insert(provisional.id)
    defer { pending.remove(provisional.id) }
    do {
      let saved = try await repo.create(title: title, body: body, userId: userId)
      replace(provisional.id, with: saved)
      created = saved
      analytics.track(
        "post_created",
        ["post_id": .count(saved.id), "user_id": .count(userId), "offline": .flag(false)])
      return true
    } catch {
      analytics.track("post_create_failed", AnalyticsValue.failure(error))
      posts.removeAll { $0.id == provisional.id }
      state = .failed(error, "Could not create the post")
      return false
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
      replace(id, with: try await repo.update(id: id, title: title))
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
      try await repo.delete(id: id)
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
