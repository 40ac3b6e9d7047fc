import Observation
import Strata

/// A post with its comments: both fetched at once, shown together.
@MainActor @Observable
public final class PostDetailViewModel: LoadStateOwner {
  /// The post, once loaded.
  public private(set) var post: Post?
  /// Its comments, once loaded.
  public private(set) var comments: [PostComment] = []
  /// Loading, or the last request's failure.
  public var state = LoadState.idle
  @ObservationIgnored private let posts: any PostsRepository
  @ObservationIgnored private let commentsRepository: any CommentsRepository

  /// Creates the view model.
  public nonisolated init(posts: any PostsRepository, comments: any CommentsRepository) {
    self.posts = posts
    self.commentsRepository = comments
  }

  /// Loads post `id` and its comments (two requests, in parallel).
  public func load(id: Int) async {
    let loaded = await loading {
      async let post = posts.item(id: id)
      async let page = commentsRepository.comments(postId: id)
      return (try await post, try await page.items)
    }
    (post, comments) = (loaded?.0, loaded?.1 ?? [])
  }
}
