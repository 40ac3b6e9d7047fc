import Foundation
import Strata

/// The user a login returns (DummyJSON's `/auth/login` fields, tokens excluded).
public struct AuthUser: Codable, Sendable, Equatable {
  /// The user id.
  public let id: Int
  /// Login name.
  public let username: String
  /// E-mail address.
  public let email: String
  /// Given name.
  public let firstName: String
  /// Family name.
  public let lastName: String
}

/// `POST /auth/login` and `POST /auth/refresh` responses: tokens (plus the user for a login).
struct TokenResponse: Decodable, Sendable {
  let accessToken: String
  let refreshToken: String

  /// Credentials expiring `lifetime` from `now`.
  func credentials(lifetime: Duration, now: Date) -> Credentials {
    return Credentials(
      accessToken: accessToken, refreshToken: refreshToken,
      expiresAt: now.addingTimeInterval(lifetime.inSeconds))
  }
}
