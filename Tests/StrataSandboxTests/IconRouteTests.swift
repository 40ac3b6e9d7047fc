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

  /// Every answer forbids type sniffing: Apple's URLSession holds back up to 512 bytes of
  /// one it may sniff.
  @Test func everyAnswerForbidsSniffing() {
    for path in ["/icon/emilys/128", "/posts/1", "/nowhere"] {
      let head = String(
        decoding: Self.get(path).serialized(keepAlive: false, includeBody: false), as: UTF8.self)
      #expect(head.contains("\r\nX-Content-Type-Options: nosniff\r\n"), "\(path)")
    }
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
    #expect(hostile.status == 416, "a first position past Int is past the end, not a trap")
  }

  /// RFC 9110 §14.1.2: an invalid range set is ignored (the whole, `200`), and a last position
  /// past the end — past `Int` too — means the end.
  @Test func invalidRangesAreIgnoredAndHugePositionsClamped() throws {
    let whole = Self.get("/icon/emilys/128")
    let count = whole.body.count
    for invalid in ["bytes=5-3", "bytes=a-", "bytes=1-x", "items=0-1", "bytes=--1", "bytes="] {
      let answer = Self.get("/icon/emilys/128", [("Range", invalid)])
      #expect(answer.status == 200 && answer.body == whole.body, "\(invalid): ignored")
    }
    let clamped = Self.get("/icon/emilys/128", [("Range", "bytes=10-9999999999999999999")])
    #expect(clamped.status == 206 && clamped.body == whole.body.dropFirst(10))
    #expect(clamped.header("Content-Range") == "bytes 10-\(count - 1)/\(count)")
    let suffix = Self.get("/icon/emilys/128", [("Range", "bytes=-99999999999999999999")])
    #expect(suffix.status == 206 && suffix.body == whole.body, "a suffix past Int: everything")
    #expect(ByteRanges.parse("bytes=0-0", total: 0) == .unsatisfiable)
  }
}

@Suite("The sandbox's accept loop cannot die of SIGPIPE")
struct WakePipeTests {
  /// The wake channel is a socket pair (a pipe's write raises `SIGPIPE` once its reader is
  /// gone, and nothing but a socket can refuse it): waking after the accept thread closed its
  /// end returns.
  @Test func wakingAfterTheReaderIsGoneIsHarmless() throws {
    let wake = try Socket.wakePipe()
    var info = stat()
    #expect(fstat(wake.write, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK)
    close(wake.read)
    Socket.wake(wake.write)  // would end the process with a pipe
  }
}
