import Foundation
import Strata
import Testing

@testable import DemoKit

@Suite("Token expiry: the JWT's exp, not the requested lifetime")
struct TokenExpiryTests {
  static func jwt(exp: Int) -> String {
    let payload = Data(#"{"id":1,"iat":\#(exp - 60),"exp":\#(exp)}"#.utf8).base64EncodedString()
      .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
    return "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.\(payload).sig"
  }

  @Test func aJWTsExpWinsOverWhatWasAskedFor() {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    // Asked for 30 minutes, the server issued 60 s: the token's own claim is believed.
    let issued = TokenResponse(accessToken: Self.jwt(exp: 1_800_000_060), refreshToken: "r")
    #expect(
      issued.credentials(requested: .seconds(1800), now: now).expiresAt
        == Date(timeIntervalSince1970: 1_800_000_060))
    let opaque = TokenResponse(accessToken: "opaque", refreshToken: "r")
    #expect(
      opaque.credentials(requested: .seconds(1800), now: now).expiresAt
        == now.addingTimeInterval(1800))
  }

  @Test func dummyJSONsTokenAnswersAreRejectionsOthersAreNot() {
    let rule = CredentialRejection.dummyJSON
    func body(_ message: String) -> Data { Data(#"{"message":"\#(message)"}"#.utf8) }
    #expect(rule.rejects(status: 401, body: Data()))
    #expect(rule.rejects(status: 400, body: body("Invalid access token")))
    #expect(rule.rejects(status: 500, body: body("invalid signature")))
    #expect(rule.rejects(status: 500, body: body("invalid token")))
    #expect(!rule.rejects(status: 500, body: body("Something went wrong.")))
    #expect(!rule.rejects(status: 400, body: body("Invalid credentials")))
    #expect(!rule.rejects(status: 503, body: body("invalid signature")))
    #expect(!rule.rejects(status: 500, body: Data(repeating: 0x20, count: 10_000)))
  }
}
