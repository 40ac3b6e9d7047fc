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
  /// The last sign-in failure, as a sentence.
  public private(set) var error: String?
  /// The last sign-in failure itself (a command line maps it to an exit status).
  public private(set) var failure: (any Error)?
  /// Whether the last request failed for want of a network route (show an offline banner).
  public var isOffline: Bool { ErrorText.isOffline(failure) }
  public private(set) var isLoading = false
  /// The signed-in user after success.
  public private(set) var user: AuthUser?
  @ObservationIgnored private let repo: any AuthRepository

  /// Creates the view model.
  public nonisolated init(repo: any AuthRepository) { self.repo = repo }

  /// Checks the fields against ``AccountRules`` and sets ``validationMessage``.
  /// - Returns: Whether the form may be submitted.
  @discardableResult
  public func validate() -> Bool {
    do {
      _ = try AccountRules.validatedUsername(username, password: password)
      validationError = nil
    } catch {
      validationError = error
    }
    return validationError == nil
  }

  /// Validates, then signs in.
  /// - Returns: Whether the user is now signed in.
  @discardableResult
  public func login() async -> Bool {
    error = nil
    failure = nil
    guard validate() else { return false }
    isLoading = true
    defer { isLoading = false }
    do {
      user = try await repo.login(
        username: username.trimmingCharacters(in: .whitespacesAndNewlines), password: password)
      password = ""
      return true
    } catch let failure as NetworkError {
      self.failure = failure
      error = failure.serverMessage ?? ErrorText.describe(failure)
      return false
    } catch {
      failure = error
      self.error = ErrorText.describe(error)
      return false
    }
  }
}
