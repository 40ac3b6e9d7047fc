import Foundation
import Testing

@testable import StrataSandbox

/// DummyJSON's `/icon` route as the sandbox answers it, and byte ranges on it (RFC 9110 §14).
@Suite("Sandbox: icons and byte ranges")
struct IconRouteTests {
  static let api = SandboxAPI(now: { Date() })

  static func get(_ path: String, _ headers: [(String, String)] = []) -> SandboxResponse {
    api.handle(
      SandboxRequest(
        method: "GET", path: path, query: [], headers: headers, body: Data(), receivedAt: Date()))
  }

  @Test func anIconIsAPNGWithTheRealRoutesHeaders() {
    let icon = Self.get("/icon/emilys/128")
    #expect(icon.status == 200 && icon.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    #expect(icon.header("Content-Type") == "image/png")
    #expect(icon.header("Cache-Control") == "public, max-age=31557600")
    #expect(icon.header("Content-Disposition") == "inline")
    #expect(icon.body[16..<24] == Data([0, 0, 0, 128, 0, 0, 0, 128]), "128 × 128")
    let fallback = Self.get("/icon/emilys/5000")
    #expect(fallback.body[16..<20] == Data([0, 0, 0, 100]), "out of range: 100")
    #expect(Self.get("/icon").status == 200)
  }

  @Test func rangesAreAnsweredUnderTheStrongTag() throws {
    let whole = Self.get("/icon/emilys/128")
    let tag = try #require(whole.header("ETag"))
    #expect(!tag.hasPrefix("W/"))
    let rest = Self.get("/icon/emilys/128", [("Range", "bytes=100-"), ("If-Range", tag)])
    #expect(rest.status == 206 && rest.body == whole.body.dropFirst(100))
    #expect(rest.header("Content-Range") == "bytes 100-\(whole.body.count - 1)/\(whole.body.count)")
    let suffix = Self.get("/icon/emilys/128", [("Range", "bytes=-10")])
    #expect(suffix.status == 206 && suffix.body == whole.body.suffix(10))
    let changed = Self.get(
      "/icon/emilys/128", [("Range", "bytes=100-"), ("If-Range", "\"other\"")])
    #expect(changed.status == 200 && changed.body == whole.body, "another validator: the whole")
    let beyond = Self.get("/icon/emilys/128", [("Range", "bytes=99999-")])
    #expect(beyond.status == 416 && beyond.header("Content-Range") == "bytes */\(whole.body.count)")
    let several = Self.get("/icon/emilys/128", [("Range", "bytes=0-1,5-6")])
    #expect(several.status == 200, "several ranges: the whole")
    let hostile = Self.get("/icon/emilys/128", [("Range", "bytes=99999999999999999999999-")])
    #expect(hostile.status == 416, "a number past Int is refused, not a trap")
  }
}
