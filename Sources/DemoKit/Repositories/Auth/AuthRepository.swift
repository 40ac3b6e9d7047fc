import Foundation
import Strata

/// ``AuthRepo`` over DummyJSON: login stores credentials in the ``AuthSession``; refresh is the
/// call the session makes when a token is rejected or about to expire.
public final class AuthRepository: AuthRepo {
  private let network: any Networking
  private let session: AuthSession
  private let lifetimeMinutes: Int
  private let now: @Sendable () -> Date

  /// The access-token lifetimes DummyJSON issues: 1 minute to 30 days.
  public static let tokenLifetimes: ClosedRange<Duration> = .seconds(60)...(.seconds(43_200 * 60))

  /// Creates the repository.
  /// - Parameters:
  ///   - tokenLifetime: The access-token lifetime to ask for, in whole minutes (DummyJSON's
  ///     `expiresInMins`): rounded down to a minute and kept within ``tokenLifetimes``.
  ///   - now: Wall-clock time, for the expiry of a token that is not a JWT.
  public init(
    network: any Networking, session: AuthSession, tokenLifetime: Duration = .seconds(1800),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.network = network
    self.session = session
    let minutes = tokenLifetime.components.seconds / 60
    self.lifetimeMinutes = Int(min(max(minutes, 1), 43_200))
    self.now = now
  }

  /// Signs in and stores the session.
  /// - Throws: ``NetworkError``, or the token store's error.
  public func login(username: String, password: String) async throws -> AuthUser {
    KnownSecrets.register(password)  // masked wherever it might turn up, e.g. echoed back
    let response = try await network.send(
      AuthRequests.login(username: username, password: password, lifetimeMinutes: lifetimeMinutes))
    try await session.signIn(response.tokens.credentials(requested: requestedLifetime, now: now()))
    Log.auth.info("logged in as \(response.user.username, privacy: .private)")
    return response.user
  }

  /// Exchanges a refresh token for new credentials.
  /// - Throws: ``NetworkError``.
  public func refresh(refreshToken: String) async throws -> Credentials {
    let tokens = try await network.send(
      AuthRequests.refresh(refreshToken, lifetimeMinutes: lifetimeMinutes))
    return tokens.credentials(requested: requestedLifetime, now: now())
  }

  private var requestedLifetime: Duration { .seconds(lifetimeMinutes * 60) }

  /// The signed-in user.
  /// - Throws: ``NetworkError``.
  public func me() async throws -> User { try await network.send(AuthRequests.me) }

  /// Ends the session: tells the server (`POST /auth/logout`, one attempt, best effort) and
  /// forgets the credentials locally whatever it answers.
  public func logout() async {
    if await session.isSignedIn {
      do {
        _ = try await network.send(AuthRequests.logout)
      } catch {
        Log.auth.info("the server did not confirm the sign-out (\(error)); signing out locally")
      }
    }
    await session.signOut()
  }

  /// Whether a session exists.
  public var isSignedIn: Bool { get async { await session.isSignedIn } }
}
