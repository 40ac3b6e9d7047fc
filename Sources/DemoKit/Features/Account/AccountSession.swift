import Strata

/// What the account feature needs of a session: store credentials, forget them, say whether there
/// are any. `AuthSession` is the real one (the composition root passes it); tests pass their own.
public protocol AccountSession: Sendable {
  /// Stores new credentials (after a login).
  func signIn(_ credentials: Credentials) async throws
  func signOut() async
  /// Whether credentials are held.
  var isSignedIn: Bool { get async }
}

extension AuthSession: AccountSession {}
