import Observation
import Strata

/// The signed-in user's profile and sign-out.
@MainActor @Observable
public final class ProfileViewModel {
  /// The user, once loaded.
  public private(set) var user: User?
  /// The last failure.
  public private(set) var error: String?
  /// Whether a session exists.
  public private(set) var isSignedIn = false
  @ObservationIgnored private let repo: any AuthRepository

  /// Creates the view model.
  public nonisolated init(repo: any AuthRepository) { self.repo = repo }

  /// Loads the current user.
  public func load() async {
    error = nil
    do {
      user = try await repo.me()
      isSignedIn = true
    } catch {
      user = nil
      isSignedIn = await repo.isSignedIn
      self.error = ErrorText.describe(error)
    }
  }

  /// Signs out.
  public func signOut() async {
    await repo.logout()
    user = nil
    isSignedIn = false
  }
}
