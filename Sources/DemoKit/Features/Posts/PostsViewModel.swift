import Observation
import Strata

/// A page of posts, and writing a new one.
@MainActor @Observable
public final class PostsViewModel {
  /// The page last loaded.
  public private(set) var page: Page<Post>?
  /// The post created last.
  public private(set) var created: Post?
  /// A request is under way.
  public private(set) var isLoading = false
  /// The last failure, as a sentence.
  public private(set) var error: String?
  /// The last failure itself.
  public private(set) var failure: (any Error)?
  /// Whether the last request failed for want of a network route (show an offline banner).
  public var isOffline: Bool { ErrorText.isOffline(failure) }
  @ObservationIgnored private let repo: any PostsRepository

  /// Creates the view model.
  public nonisolated init(repo: any PostsRepository) { self.repo = repo }

  /// Loads `limit` posts after the first `skip`.
  public func load(limit: Int = 10, skip: Int = 0) async {
    await run { page = try await repo.list(limit: limit, skip: skip) }
  }

  /// Creates a post (a POST: sent once, never retried).
  /// - Returns: Whether the server created it.
  @discardableResult
  public func create(title: String, body: String, userId: Int) async -> Bool {
    created = nil
    await run { created = try await repo.create(title: title, body: body, userId: userId) }
    return created != nil
  }

  private func run(_ work: () async throws -> Void) async {
    isLoading = true
    error = nil
    failure = nil
    defer { isLoading = false }
    do {
      try await work()
    } catch {
      failure = error
      self.error = ErrorText.describe(error)
    }
  }
}
