import Foundation
import Strata

/// The refresh call an `AuthSession` makes: DummyJSON's `POST /auth/refresh`, sent over a
/// service without an authenticator (it carries the refresh token in its body, never a bearer
/// token). Because it does not need the session, the session can be built with it — no cycle.
public struct TokenRefresh: Sendable {
  private let network: any Networking
  /// The lifetime asked for, in DummyJSON's whole minutes (`expiresInMins`).
  let lifetimeMinutes: Int
  private let now: @Sendable () -> Date

  /// The access-token lifetimes DummyJSON issues: 1 minute to 30 days.
  public static let tokenLifetimes: ClosedRange<Duration> = .seconds(60)...(.seconds(43_200 * 60))

  /// Token refreshes over `network` (one without an authenticator).
  ///
  /// `tokenLifetime` is rounded down to a minute and kept within ``tokenLifetimes``; `now` is
  /// the clock for the expiry of a token that is not a JWT.
  public init(
    network: any Networking, tokenLifetime: Duration = .seconds(1800),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.network = network
    let minutes = tokenLifetime.components.seconds / 60
    self.lifetimeMinutes = Int(min(max(minutes, 1), 43_200))
    self.now = now
  }

  /// Exchanges a refresh token for new credentials.
  public func refresh(_ refreshToken: String) async throws -> Credentials {
    credentials(
      from: try await network.send(
        AuthRequests.refresh(refreshToken, lifetimeMinutes: lifetimeMinutes)
      ).value)
  }

  /// Credentials from a token answer, expiring when the token says (else after
  /// the lifetime asked for), for `owner` (a refresh keeps the session's own).
  func credentials(from tokens: TokenResponse, owner: DataOwner = .device) -> Credentials {
    tokens.credentials(requested: .seconds(lifetimeMinutes * 60), now: now(), owner: owner)
  }
}
