import Foundation
import Testing

@testable import Strata

/// An origin's parts, as an app reads them (a session's, a credential's): lower case, IPv6
/// without brackets, the scheme's default port filled in; its text parses back to itself.
@Suite("Origin")
struct OriginTests {
  @Test(arguments: [
    ("https://API.Example.com/v1?x=1", "https", "api.example.com", 443, "https://api.example.com"),
    ("http://127.0.0.1:8080", "http", "127.0.0.1", 8080, "http://127.0.0.1:8080"),
    ("HTTP://[::1]:80/", "http", "::1", 80, "http://[::1]"),
  ])
  func partsAreReadable(url: String, scheme: String, host: String, port: Int, text: String) throws {
    let origin = try #require(Origin(url))
    #expect((origin.scheme, origin.host, origin.port) == (scheme, host, port))
    #expect(origin.description == text)
    #expect(Origin(text) == origin)
  }

  @Test(arguments: ["ftp://files.example", "https://x:70000", "/relative", "https://"])
  func notAnOrigin(url: String) {
    #expect(Origin(url) == nil)
  }
}
