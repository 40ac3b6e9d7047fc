import Foundation
import StrataConcurrency

/// HS256 JSON Web Tokens (RFC 7519) as the real DummyJSON issues them: header
/// `{"alg":"HS256","typ":"JWT"}`, the user's public fields plus `iat`/`exp` (whole seconds),
/// signed with a server secret. Verification fails with the messages of the `jsonwebtoken`
/// library the real service runs on, because the service answers with them.
enum JSONWebToken {
  /// Why a token did not verify, with the library's message.
  enum Failure: Error, Equatable {
    /// Not three dot-separated segments: "jwt malformed".
    case malformed
    /// A segment is not base64url JSON: "invalid token".
    case invalidToken
    /// No signature segment: "jwt signature is required".
    case signatureRequired
    /// A header `alg` other than HS256: "invalid algorithm".
    case invalidAlgorithm
    /// The signature does not match: "invalid signature".
    case invalidSignature
    /// `exp` is missing or not a number: "invalid exp value".
    case invalidExpiry
    /// `exp` has passed: "jwt expired".
    case expired

    var message: String {
      switch self {
      case .malformed: "jwt malformed"
      case .invalidToken: "invalid token"
      case .signatureRequired: "jwt signature is required"
      case .invalidAlgorithm: "invalid algorithm"
      case .invalidSignature: "invalid signature"
      case .invalidExpiry: "invalid exp value"
      case .expired: "jwt expired"
      }
    }
  }

  /// Longest token looked at; anything longer is not a token this server issued.
  static let maxLength = 8 * 1024

  private static let header = base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))

  /// A signed token carrying `claims` (JSON-compatible values).
  static func sign(_ claims: [String: Any], secret: [UInt8]) -> String {
    let payload =
      (try? JSONSerialization.data(
        withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    let signingInput = header + "." + base64URL(payload)
    return signingInput + "."
      + base64URL(Data(SHA256.hmac(key: secret, message: Array(signingInput.utf8))))
  }

  /// The claims of a token signed with `secret` whose `exp` is after `now`, checked in the
  /// order `jsonwebtoken` checks: shape, decoding, algorithm, signature, expiry.
  static func verify(_ token: String, secret: [UInt8], now: Date) -> Result<[String: Any], Failure>
  {
    guard token.utf8.count <= maxLength else { return .failure(.invalidToken) }
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return .failure(.malformed) }
    guard let headerData = decodeBase64URL(parts[0]), let payloadData = decodeBase64URL(parts[1]),
      let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
      let claims = (try? JSONSerialization.jsonObject(with: payloadData)) as? [String: Any]
    else { return .failure(.invalidToken) }
    let signature = parts[2].trimmingCharacters(in: .whitespaces)
    guard !signature.isEmpty else { return .failure(.signatureRequired) }
    guard header["alg"] as? String == "HS256" else { return .failure(.invalidAlgorithm) }
    // Compared as text, as `jws` does: a signature with altered padding bits is another
    // signature, even though it decodes to the same bytes.
    let expected = base64URL(
      Data(SHA256.hmac(key: secret, message: Array("\(parts[0]).\(parts[1])".utf8))))
    guard constantTimeEqual(Array(signature.utf8), Array(expected.utf8)) else {
      return .failure(.invalidSignature)
    }
    guard let exp = claims["exp"] as? NSNumber, exp.doubleValue.isFinite else {
      return .failure(.invalidExpiry)
    }
    return now.timeIntervalSince1970.rounded(.down) < exp.doubleValue
      ? .success(claims) : .failure(.expired)
  }

  static func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  }

  static func decodeBase64URL(_ text: Substring) -> Data? {
    guard
      text.utf8.allSatisfy({
        (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
          || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
      })
    else { return nil }
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
      of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64)
  }

  private static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    return zip(lhs, rhs).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
  }
}
