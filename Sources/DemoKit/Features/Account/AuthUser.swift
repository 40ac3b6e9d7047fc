import Foundation
import Strata

/// The user a login returns (DummyJSON's `/auth/login` fields, tokens excluded).
public struct AuthUser: Codable, Sendable, Equatable {
  public let id: Int
  public let username: String
  public let email: String
  public let firstName: String
  public let lastName: String

  /// Creates the value (previews, tests, fixtures).
  public init(id: Int, username: String, email: String, firstName: String, lastName: String) {
    (self.id, self.username, self.email, self.firstName, self.lastName) = (
      id, username, email, firstName, lastName
    )
  }
}

/// `POST /auth/login` and `POST /auth/refresh` responses: tokens (plus the user for a login).
struct TokenResponse: Decodable, Sendable {
  let accessToken: String
  let refreshToken: String

  /// Credentials expiring when the access token says (its JWT `exp` claim), or, for a token
  /// that is not a JWT, `requested` from `now`; for `owner` (the user's account, which the
  /// HTTP cache keeps the user's answers under).
  func credentials(requested: Duration, now: Date, owner: DataOwner = .device) -> Credentials {
    Credentials(
      accessToken: accessToken, refreshToken: refreshToken, lifetime: requested, now: now,
      owner: owner)
  }
}
