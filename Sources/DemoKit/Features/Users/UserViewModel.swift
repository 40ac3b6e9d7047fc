import Observation
import Strata

/// One user's detail screen.
@MainActor @Observable
public final class UserViewModel {
  /// The user, once loaded.
  public private(set) var user: User?
  /// A fetch is under way.
  public private(set) var isLoading = false
  /// The last failure, as a sentence.
  public private(set) var error: String?
  /// The last failure itself.
  public private(set) var failure: (any Error)?
  /// Whether the last request failed for want of a network route (show an offline banner).
  public var isOffline: Bool { ErrorText.isOffline(failure) }
  @ObservationIgnored private let repo: any UsersRepository

  /// Creates the view model.
  public nonisolated init(repo: any UsersRepository) { self.repo = repo }

  /// Loads the user with `id`.
  public func load(id: Int) async {
    isLoading = true
    error = nil
    failure = nil
    defer { isLoading = false }
    do {
      user = try await repo.user(id: id)
    } catch {
      user = nil
      failure = error
      self.error = ErrorText.describe(error)
    }
  }
}
