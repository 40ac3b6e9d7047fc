import Observation
import Strata

/// The signed-in user's profile and sign-out.
@MainActor @Observable
public final class ProfileViewModel {
  /// The user, once loaded.
  public private(set) var user: User?
  /// The last failure, as a sentence.
  public private(set) var error: String?
  /// The last failure itself.
  public private(set) var failure: (any Error)?
  /// Whether the last request failed for want of a network route (show an offline banner).
  public var isOffline: Bool { ErrorText.isOffline(failure) }
  /// Whether a session exists.
  public private(set) var isSignedIn = false
  @ObservationIgnored private let repo: any AuthRepository

  /// Creates the view model.
  public nonisolated init(repo: any AuthRepository) { self.repo = repo }

  /// Loads the current user.
  public func load() async {
    error = nil
    failure = nil
    do {
      user = try await repo.me()
      isSignedIn = true
    } catch {
      user = nil
      isSignedIn = await repo.isSignedIn
      failure = error
      self.error = ErrorText.describe(error)
    }
  }

  public func signOut() async {
    await repo.logout()
    user = nil
    isSignedIn = false
  }
}
