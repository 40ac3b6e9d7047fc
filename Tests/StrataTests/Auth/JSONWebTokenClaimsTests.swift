import Foundation
import Strata
import Testing

@Suite("JSON Web Token claims (read, not verified)")
struct JSONWebTokenClaimsTests {
  static func token(payload: String, header: String = #"{"alg":"HS256","typ":"JWT"}"#) -> String {
    func encode(_ text: String) -> String {
      Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
    return "\(encode(header)).\(encode(payload)).c2lnbmF0dXJl"
  }

  @Test func readsExpAndIat() throws {
    let claims = try #require(
      JSONWebTokenClaims(token: Self.token(payload: #"{"id":1,"iat":1800000000,"exp":1800000060}"#))
    )
    #expect(claims.expiresAt == Date(timeIntervalSince1970: 1_800_000_060))
    #expect(claims.issuedAt == Date(timeIntervalSince1970: 1_800_000_000))
  }

  @Test(arguments: [
    "opaque-token", "a.b", "a.b.c.d", "", "....", "eyJ.%%%.sig",
    String(repeating: "a", count: 9_000),
  ])
  func whatIsNotAJWTHasNoClaims(_ token: String) {
    #expect(JSONWebTokenClaims(token: token) == nil)
  }

  @Test(arguments: [
    #"{"exp":"1800000060"}"#, #"{"exp":-5}"#, #"{"exp":1e300}"#, #"{"exp":253402300800}"#,
    #"{"exp":null}"#, #"{"exp":[1]}"#, #"{}"#,
  ])
  func aHostileExpIsLeftOutNeverTrusted(_ payload: String) throws {
    let claims = try #require(JSONWebTokenClaims(token: Self.token(payload: payload)))
    #expect(claims.expiresAt == nil, "\(payload)")
  }

  @Test func aPayloadThatIsNotAnObjectIsNotAJWT() {
    #expect(JSONWebTokenClaims(token: Self.token(payload: "[1,2]")) == nil)
    #expect(JSONWebTokenClaims(token: Self.token(payload: "not json")) == nil)
  }
}
