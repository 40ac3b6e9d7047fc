import Foundation
import Observation
import Strata

/// The login form: validation, sign-in, and the message to show.
@MainActor @Observable
public final class LoginViewModel {
  /// The login name field.
  public var username = ""
  public var password = ""
  /// The rule the fields break, if any (a command line exits 65 with it).
  public private(set) var validationError: ValidationError?
  /// Why the form cannot be submitted yet, as the sentence to show.
  public var validationMessage: String? { validationError?.message }
  /// A sign-in under way, or the last one's failure (the server's own sentence when it gave one).
  public private(set) var state = LoadState.idle
  /// The signed-in user after success.
  public private(set) var user: AuthUser?
  @ObservationIgnored private let repo: any AuthRepository

  /// Creates the view model.
  public nonisolated init(repo: any AuthRepository) { self.repo = repo }

  /// Checks the fields against ``AccountRules`` and sets ``validationMessage``.
  /// - Returns: Whether the form may be submitted.
  @discardableResult
  public func validate() -> Bool { validatedUsername() != nil }

  /// The username as it is sent (trimmed), or nil with ``validationError`` set.
  private func validatedUsername() -> String? {
    do {
      let name = try AccountRules.validatedUsername(username, password: password)
      validationError = nil
      return name
    } catch {
      validationError = error
      return nil
    }
  }

  /// Validates, then signs in.
  /// - Returns: Whether the user is now signed in.
  @discardableResult
  public func login() async -> Bool {
    state = .idle
    guard let name = validatedUsername() else { return false }
    state = .loading
    do {
      user = try await repo.login(username: name, password: password)
      password = ""
      state = .idle
      return true
    } catch {
      let message = (error as? NetworkError)?.serverMessage
      state = .failed(message.map { .init(error, message: $0) } ?? .init(error))
      return false
    }
  }
}
