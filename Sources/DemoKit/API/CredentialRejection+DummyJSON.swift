import Foundation
import Strata

extension CredentialRejection {
  /// How DummyJSON says "this access token is not accepted": `401` (expired, malformed,
  /// missing), `400 "Invalid access token"` (well signed, but for no user it knows), and a
  /// `500` carrying the JWT library's message for a token it cannot verify (bad signature,
  /// corrupt segment). Those 500s are answers about the token, not server failures: they are
  /// refreshed once and never retried.
  public static let dummyJSON = CredentialRejection { status, body in
    switch status {
    case 401: return true
    case 400, 500:
      guard body.count <= 4_096,
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
        let message = object["message"] as? String
      else { return false }
      return status == 400
        ? message == "Invalid access token" : tokenLibraryMessages.contains(message)
    default: return false
    }
  }

  /// The `jsonwebtoken` errors DummyJSON passes through as a 500.
  private static let tokenLibraryMessages: Set<String> = [
    "invalid signature", "invalid token", "jwt malformed", "jwt signature is required",
    "invalid algorithm", "invalid exp value", "jwt expired", "invalid Token!",
  ]
}
