import Foundation
import Strata

/// ``AuthRepo`` over DummyJSON: login stores credentials in the ``AuthSession``; refresh is the
/// call the session makes when a token is rejected or about to expire.
public final class AuthRepository: AuthRepo {
  private let network: any Networking
  private let session: AuthSession
  private let lifetimeSeconds: Int
  private let now: @Sendable () -> Date

  /// Creates the repository.
  /// - Parameters:
  ///   - network: The networking layer.
  ///   - session: Where credentials live.
  ///   - tokenLifetime: Requested access-token lifetime (DummyJSON `expiresInMins`; the sandbox
  ///     also honours seconds).
  ///   - now: Wall-clock time, for expiry dates.
  public init(
    network: any Networking, session: AuthSession, tokenLifetime: Duration = .seconds(1800),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.network = network
    self.session = session
    self.lifetimeSeconds = max(1, Int(tokenLifetime.components.seconds))
    self.now = now
  }

  /// Signs in and stores the session.
  /// - Parameters:
  ///   - username: The login name.
  ///   - password: The password.
  /// - Returns: The signed-in user.
  /// - Throws: ``NetworkError``, or the token store's error.
  public func login(username: String, password: String) async throws -> AuthUser {
    KnownSecrets.register(password)  // masked wherever it might turn up, e.g. echoed back
    let response = try await network.send(
      AuthEndpoints.Login(username: username, password: password, lifetimeSeconds: lifetimeSeconds))
    try await session.signIn(
      response.tokens.credentials(lifetime: .seconds(lifetimeSeconds), now: now()))
    Log.auth.info("logged in as \(response.user.username, privacy: .private)")
    return response.user
  }

  /// Exchanges a refresh token for new credentials.
  /// - Parameter refreshToken: The refresh token.
  /// - Returns: New credentials.
  /// - Throws: ``NetworkError``.
  public func refresh(refreshToken: String) async throws -> Credentials {
    let tokens = try await network.send(
      AuthEndpoints.Refresh(refreshToken: refreshToken, lifetimeSeconds: lifetimeSeconds))
    return tokens.credentials(lifetime: .seconds(lifetimeSeconds), now: now())
  }

  /// The signed-in user.
  /// - Returns: The user.
  /// - Throws: ``NetworkError``.
  public func me() async throws -> User { try await network.send(AuthEndpoints.Me()) }

  /// Ends the session.
  public func logout() async { await session.signOut() }

  /// Whether a session exists.
  public var isSignedIn: Bool { get async { await session.isSignedIn } }
}
