import Observation
import Strata

/// A post with its comments: both fetched at once, shown together.
@MainActor @Observable
public final class PostDetailViewModel {
  /// The post, once loaded.
  public private(set) var post: Post?
  /// Its comments, once loaded.
  public private(set) var comments: [PostComment] = []
  /// A fetch is under way.
  public private(set) var isLoading = false
  /// The last failure, as a sentence.
  public private(set) var error: String?
  /// The last failure itself.
  public private(set) var failure: (any Error)?
  /// Whether the last request failed for want of a network route (show an offline banner).
  public var isOffline: Bool { ErrorText.isOffline(failure) }
  @ObservationIgnored private let posts: any PostsRepository
  @ObservationIgnored private let commentsRepository: any CommentsRepository

  /// Creates the view model.
  public nonisolated init(posts: any PostsRepository, comments: any CommentsRepository) {
    self.posts = posts
    self.commentsRepository = comments
  }

  /// Loads post `id` and its comments (two requests, in parallel).
  public func load(id: Int) async {
    isLoading = true
    error = nil
    failure = nil
    defer { isLoading = false }
    do {
      async let post = posts.post(id: id)
      async let page = commentsRepository.comments(postId: id)
      (self.post, comments) = (try await post, try await page.items)
    } catch {
      post = nil
      comments = []
      failure = error
      self.error = ErrorText.describe(error)
    }
  }
}
