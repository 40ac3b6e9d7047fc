import Foundation

/// An access token, the refresh token that renews it, and when the access token expires.
/// Prints as `Credentials(<redacted>)` everywhere: descriptions, `dump` and mirrors.
public struct Credentials: Codable, Sendable, Equatable, CustomStringConvertible,
  CustomDebugStringConvertible, CustomReflectable
{
  /// The bearer token sent as `Authorization: Bearer …`.
  public let accessToken: String
  /// The token exchanged for a new pair.
  public let refreshToken: String
  /// When the access token stops working, if known.
  public let expiresAt: Date?

  /// Creates credentials.
  /// - Parameters:
  ///   - accessToken: The access token.
  ///   - refreshToken: The refresh token.
  ///   - expiresAt: Access token expiry, if known.
  public init(accessToken: String, refreshToken: String, expiresAt: Date? = nil) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresAt = expiresAt
  }

  /// Never shows a token.
  public var description: String {
    "Credentials(access: \(Redactor.placeholder), refresh: \(Redactor.placeholder)"
      + (expiresAt.map { ", expires: \($0)" } ?? "") + ")"
  }

  /// Never shows a token.
  public var debugDescription: String { description }

  /// A mirror without the tokens.
  public var customMirror: Mirror {
    Mirror(self, children: ["expiresAt": expiresAt as Any], displayStyle: .struct)
  }
}
