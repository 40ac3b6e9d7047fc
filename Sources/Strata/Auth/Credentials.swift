import Foundation

/// An access token, the refresh token that refreshes it, when the access token expires, and the
/// origin of the API that issued them. Prints as `Credentials(<redacted>)` everywhere:
/// descriptions, `dump` and mirrors.
public struct Credentials: Codable, Sendable, Equatable, CustomStringConvertible,
  CustomDebugStringConvertible, CustomReflectable
{
  /// The bearer token sent as `Authorization: Bearer …`.
  package let accessToken: String
  /// The token exchanged for a new pair.
  package let refreshToken: String
  /// When the access token stops working, if known (an app may show it; ``AuthSession``
  /// refreshes the token shortly before).
  public let expiresAt: Date?
  /// The API that issued the tokens; they are sent nowhere else. Nil for credentials that
  /// are not bound yet (an ``AuthSession`` binds them to its origin when it stores them, and
  /// never uses stored credentials that are unbound or bound elsewhere).
  public let origin: Origin?
  /// Who signed in (a user id or name, never a token), as stored (`account` in a session
  /// file); nil: ``DataOwner/device``.
  let account: String?

  /// Whose session these credentials make: the account the HTTP cache keeps that user's
  /// answers under, so another user on the device never sees them. ``DataOwner/device``:
  /// answers to requests carrying these tokens are not cached.
  public var owner: DataOwner { DataOwner(account: account) }

  /// Credentials as a sign-in answer gives them. The tokens are read only by Strata (an
  /// ``AuthSession`` masks them everywhere and sends them to `origin` alone); an app keeps
  /// them by encoding the value (it is `Codable`), as ``FileTokenStore`` does.
  public init(
    accessToken: String, refreshToken: String, expiresAt: Date? = nil, origin: Origin? = nil,
    owner: DataOwner = .device
  ) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresAt = expiresAt
    self.origin = origin
    self.account = owner.account
  }

  /// Credentials that expire when the access token says (a JWT's `exp` claim) or, for a token
  /// that is not a JWT or names no expiry, `lifetime` after `now`.
  public init(
    accessToken: String, refreshToken: String, lifetime: Duration, now: Date = Date(),
    owner: DataOwner = .device
  ) {
    let fallback = now.addingTimeInterval(
      TimeInterval(lifetime.components.seconds)
        + TimeInterval(lifetime.components.attoseconds) / 1e18)
    self.init(
      accessToken: accessToken, refreshToken: refreshToken,
      expiresAt: JSONWebTokenClaims(token: accessToken)?.expiresAt ?? fallback, owner: owner)
  }

  /// The same credentials bound to `origin`, for `account` when they name none (a refresh
  /// answers with tokens only: the user is the one whose session it refreshes).
  package func bound(to origin: Origin, account fallback: String? = nil) -> Credentials {
    Credentials(
      accessToken: accessToken, refreshToken: refreshToken, expiresAt: expiresAt, origin: origin,
      owner: DataOwner(account: account ?? fallback))
  }

  /// Never shows a token.
  public var description: String {
    "Credentials(access: \(Redactor.placeholder), refresh: \(Redactor.placeholder)"
      + (origin.map { ", origin: \($0)" } ?? "")
      + (expiresAt.map { ", expires: \($0)" } ?? "") + ")"
  }

  /// Never shows a token.
  public var debugDescription: String { description }

  /// A mirror without the tokens.
  public var customMirror: Mirror {
    Mirror(
      self, children: ["expiresAt": expiresAt as Any, "origin": origin as Any],
      displayStyle: .struct)
  }
}
