import Observation
import Strata

/// A user's posts, a page at a time.
@MainActor @Observable
public final class UserPostsViewModel: LoadStateOwner {
  /// The page last loaded; nil after a failed load, so no other user's posts stay shown.
  public private(set) var page: Page<Post>?
  /// A fetch under way, or the last one's failure.
  public var state = LoadState.idle
  @ObservationIgnored private let repo: any UserPostsRepository

  public nonisolated init(repo: any UserPostsRepository) { self.repo = repo }

  /// Loads `limit` of user `userId`'s posts after the first `skip`; a failure clears the page.
  public func load(userId: Int, limit: Int = 10, skip: Int = 0) async {
    page = await loading { try await repo.posts(byUser: userId, limit: limit, skip: skip) }
  }
}
