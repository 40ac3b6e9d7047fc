import Observation
import Strata

/// The signed-in user's profile and sign-out.
@MainActor @Observable
public final class ProfileViewModel {
  /// The user, once loaded.
  public private(set) var user: User?
  /// Loading, or the last request's failure.
  public private(set) var state = LoadState.idle
  /// Whether a session exists.
  public private(set) var isSignedIn = false
  @ObservationIgnored private let repo: any AuthRepository

  /// Creates the view model.
  public nonisolated init(repo: any AuthRepository) { self.repo = repo }

  /// Loads the current user.
  public func load() async {
    state = .loading
    do {
      user = try await repo.me()
      isSignedIn = true
      state = .idle
    } catch {
      user = nil
      isSignedIn = await repo.isSignedIn
      state = .failed(error)
    }
  }

  public func signOut() async {
    await repo.logout()
    user = nil
    isSignedIn = false
  }
}
