import Strata

/// Sign-in, token refresh, the current user and sign-out. The only place that sees tokens.
public protocol AuthRepository: Sendable {
  /// Signs in and stores the session.
  /// - Throws: ``NetworkError`` (`.server(400)` "Invalid credentials" for a wrong password).
  func login(username: String, password: String) async throws -> AuthUser
  /// Exchanges a refresh token for new credentials: the function `AuthSession` calls.
  /// - Throws: ``NetworkError``.
  func refresh(refreshToken: String) async throws -> Credentials
  /// The signed-in user's full record.
  /// - Throws: ``NetworkError/Unauthorized`` when signed out.
  func me() async throws -> User
  /// Ends the session.
  func logout() async
  /// Whether a session exists.
  var isSignedIn: Bool { get async }
}
