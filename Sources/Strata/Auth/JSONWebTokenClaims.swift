import Foundation

/// The time claims of a JSON Web Token (RFC 7519), read — not verified — so a client knows
/// when the token the server issued expires instead of guessing from what it asked for.
/// Only the issuer can verify a token; a client reading `exp` to schedule its refresh is
/// safe, since the server still checks every token it is sent.
/// ```swift
/// let expiresAt =
///   JSONWebTokenClaims(token: accessToken)?.expiresAt
///   ?? now.addingTimeInterval(requestedLifetime)
/// ```
package struct JSONWebTokenClaims: Sendable, Equatable {
  /// `exp`: when the token stops being accepted.
  package let expiresAt: Date?
  /// `iat`: when it was issued.
  package let issuedAt: Date?

  /// Longest token looked at (8 KiB): anything longer is not decoded.
  package static let maxTokenLength = 8 * 1024

  /// Latest time claim accepted: the end of year 9999 (a larger one is a hostile value).
  private static let latestTime: Double = 253_402_300_799

  /// Reads the claims of a compact JWT (`header.payload.signature`); nil when `token` is not
  /// one, or its payload is not a JSON object. A time claim that is not a number from 0 to the
  /// year 9999 is left out (nil), never trusted or trapped on.
  package init?(token: String) {
    guard token.utf8.count <= Self.maxTokenLength else { return nil }
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let payload = Self.decodeBase64URL(parts[1]),
      let claims = (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any]
    else { return nil }
    func time(_ name: String) -> Date? {
      guard let number = claims[name] as? NSNumber, !(claims[name] is Bool),
        number.doubleValue.isFinite, (0...Self.latestTime).contains(number.doubleValue)
      else { return nil }
      return Date(timeIntervalSince1970: number.doubleValue)
    }
    expiresAt = time("exp")
    issuedAt = time("iat")
  }

  /// Base64url without padding (RFC 4648 §5); nil for any other character.
  private static func decodeBase64URL(_ text: Substring) -> Data? {
    var base64 = ""
    base64.reserveCapacity(text.utf8.count + 3)
    for character in text.unicodeScalars {
      switch character {
      case "A"..."Z", "a"..."z", "0"..."9": base64.unicodeScalars.append(character)
      case "-": base64 += "+"
      case "_": base64 += "/"
      default: return nil
      }
    }
    base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
    return Data(base64Encoded: base64)
  }
}
