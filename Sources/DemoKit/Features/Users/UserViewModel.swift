import Observation
import Strata

/// One user's detail screen, with an optimistic rename.
@MainActor @Observable
public final class UserViewModel: LoadStateOwner {
  /// The user, once loaded.
  public private(set) var user: User?
  /// A change is being saved (the shown user is not confirmed yet).
  public private(set) var isSaving = false
  /// Loading, or the last request's failure.
  public var state = LoadState.idle
  @ObservationIgnored private let repo: any UsersRepository

  /// Creates the view model.
  public nonisolated init(repo: any UsersRepository) { self.repo = repo }

  /// Loads the user with `id`.
  public func load(id: Int) async {
    user = await loading { try await repo.user(id: id) }
  }

  /// Shows the new first name at once, then saves it; the old one comes back on failure.
  /// - Returns: Whether the server kept the change.
  @discardableResult
  public func rename(firstName: String) async -> Bool {
    guard let previous = user else { return false }
    state = .idle
    user = previous.renamed(firstName)
    isSaving = true
    defer { isSaving = false }
    do {
      user = try await repo.rename(id: previous.id, firstName: firstName)
      return true
    } catch {
      user = previous
      state = .failed(error, Localized.current("failure.renameUser", ["id": String(previous.id)]))
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
