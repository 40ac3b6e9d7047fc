import Observation
import Strata

/// One user's detail screen, with an optimistic rename.
@MainActor @Observable
public final class UserViewModel {
  /// The user, once loaded.
  public private(set) var user: User?
  /// A fetch is under way.
  public private(set) var isLoading = false
  /// A change is being saved (the shown user is not confirmed yet).
  public private(set) var isSaving = false
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

  /// Shows the new first name at once, then saves it; the old one comes back on failure.
  /// - Returns: Whether the server kept the change.
  @discardableResult
  public func rename(firstName: String) async -> Bool {
    guard let previous = user else { return false }
    error = nil
    failure = nil
    user = previous.renamed(firstName)
    isSaving = true
    defer { isSaving = false }
    do {
      user = try await repo.rename(id: previous.id, firstName: firstName)
      return true
    } catch {
      user = previous
      failure = error
      self.error = "Could not rename user \(previous.id): \(ErrorText.describe(error))"
      return false
    }
  }
}

extension User {
  /// The same user with another first name.
  func renamed(_ firstName: String) -> User {
    User(
      id: id, firstName: firstName, lastName: lastName, age: age, email: email,
      username: username, phone: phone, image: image, address: address, company: company,
      role: role)
  }
}
