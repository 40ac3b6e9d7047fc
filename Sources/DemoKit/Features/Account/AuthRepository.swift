import Foundation
import Strata

/// Sign-in, token refresh, the current user and sign-out. The only place that sees tokens.
public protocol AuthRepository: Sendable {
  /// Signs in and stores the session.
  /// - Throws: ``NetworkError`` (`.server(400)` "Invalid credentials" for a wrong password).
  func login(username: String, password: String) async throws -> AuthUser
  /// Exchanges a refresh token for new credentials: the function `AuthSession` calls.
  func refresh(refreshToken: String) async throws -> Credentials
  /// The signed-in user's full record.
  /// - Throws: ``NetworkError/Unauthorized`` when signed out.
  func me() async throws -> User
  func logout() async
  /// Whether a session exists.
  var isSignedIn: Bool { get async }
}

// MARK: - Live implementation

/// ``AuthRepository`` over DummyJSON: login stores credentials in the ``AuthSession``; refresh is the
/// call the session makes when a token is rejected or about to expire.
public final class APIAuthRepository: AuthRepository {
  private let network: any Networking
  private let session: any AccountSession
  private let tokenRefresh: TokenRefresh
  private let analytics: any Analytics

  /// A repository signing in over `network` into `session`; `tokenRefresh` sets the token lifetime
  /// asked for and makes the refresh call.
  public init(
    network: any Networking, session: any AccountSession, tokenRefresh: TokenRefresh,
    analytics: any Analytics = NoAnalytics()
  ) {
    self.network = network
    self.session = session
    self.tokenRefresh = tokenRefresh
    self.analytics = analytics
  }

  /// Signs in and stores the session.
  /// - Throws: ``NetworkError``, or the token store's error.
  public func login(username: String, password: String) async throws -> AuthUser {
    KnownSecrets.register(password)  // masked wherever it might turn up, e.g. echoed back
    let response = try await network.send(
      AuthRequests.login(
        username: username, password: password, lifetimeMinutes: tokenRefresh.lifetimeMinutes)
    ).value
    try await session.signIn(
      tokenRefresh.credentials(from: response.tokens, owner: .account("user-\(response.user.id)")))
    Log.account.info("logged in as \(response.user.username, privacy: .private)")
    analytics.track("signed_in", ["user_id": .count(response.user.id)])
    return response.user
  }

  /// Exchanges a refresh token for new credentials.
  public func refresh(refreshToken: String) async throws -> Credentials {
    try await tokenRefresh.refresh(refreshToken)
  }

  public func me() async throws -> User { try await network.send(AuthRequests.me).value }

  /// Ends the session: tells the server (`POST /auth/logout`, one attempt, best effort) and
  /// forgets the credentials locally whatever it answers.
  public func logout() async {
    guard await session.isSignedIn else { return await session.signOut() }
    analytics.track("signed_out", ["reason": .label(.user)])
    do {
      _ = try await network.send(AuthRequests.logout)
    } catch {
      Log.account.info("the server did not confirm the sign-out (\(error)); signing out locally")
    }
    await session.signOut()
  }

  /// Whether a session exists.
  public var isSignedIn: Bool { get async { await session.isSignedIn } }
}
