import Foundation
import Testing

@testable import StrataSandbox

/// The sandbox's request parser fed as a slow or hostile client sends: one byte per read.
@Suite("Sandbox request parser")
struct HTTPRequestParserTests {
  static func feedByteByByte(_ bytes: [UInt8], to parser: inout HTTPRequestParser)
    -> [HTTPRequestParser.Outcome]
  {
    var buffer: [UInt8] = []
    var outcomes: [HTTPRequestParser.Outcome] = []
    for byte in bytes {
      buffer.append(byte)
      var outcome = parser.parse(&buffer, now: Date())
      while case .request = outcome {
        outcomes.append(outcome)
        outcome = parser.parse(&buffer, now: Date())
      }
      if case .reject = outcome { outcomes.append(outcome) }
    }
    return outcomes
  }

  /// A head just under the 16 KiB limit and a body, a byte per read: every byte is searched
  /// about once (rescanning the buffer on each read searched 130 million).
  @Test func aTricklingRequestCostsWorkLinearInItsSize() {
    let filler = (0..<280).map { "X-Filler-\($0): \(String(repeating: "v", count: 40))\r\n" }
    let body = #"{"title":"slow","userId":1}"#
    let request =
      "POST /posts/add HTTP/1.1\r\nHost: x\r\n\(filler.joined())Content-Type: application/json\r\n"
      + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)GET /users/1 HTTP/1.1\r\n\r\n"
    let bytes = Array(request.utf8)
    #expect(bytes.count > 15_000 && bytes.count < 16 * 1024)
    var parser = HTTPRequestParser(limits: SandboxLimits())
    let outcomes = Self.feedByteByByte(bytes, to: &parser)
    #expect(parser.bytesSearched <= 4 * bytes.count, "\(parser.bytesSearched) for \(bytes.count)")
    guard outcomes.count == 2, case .request(let post, _) = outcomes[0],
      case .request(let get, _) = outcomes[1]
    else {
      Issue.record("expected two requests, got \(outcomes)")
      return
    }
    #expect(post.method == "POST" && post.path == "/posts/add" && post.headers.count == 283)
    #expect(String(decoding: post.body, as: UTF8.self) == body)
    #expect(get.method == "GET" && get.path == "/users/1")
  }

  /// A head that is not UTF-8 (a lone continuation byte, an overlong "/", a surrogate) is a
  /// 400; one with UTF-8 letters in a header value is a request.
  @Test(arguments: [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80]] as [[UInt8]])
  func aHeadThatIsNotUTF8IsA400(bad: [UInt8]) {
    var parser = HTTPRequestParser(limits: SandboxLimits())
    let head = Array("GET / HTTP/1.1\r\nX-Name: ".utf8) + bad + Array("\r\n\r\n".utf8)
    guard case .reject(400, _) = Self.feedByteByByte(head, to: &parser).first else {
      Issue.record("expected 400 for \(bad)")
      return
    }
    var fresh = HTTPRequestParser(limits: SandboxLimits())
    let good = Array("GET / HTTP/1.1\r\nX-Name: Zoë €\r\n\r\n".utf8)
    guard case .request(let request, _) = Self.feedByteByByte(good, to: &fresh).first else {
      Issue.record("expected a request")
      return
    }
    #expect(request.headers.contains { $0.value == "Zoë €" })
  }

  /// The limit still holds when the head arrives a byte at a time, and a separator split
  /// across reads (`\r\n` | `\r\n`) is found.
  @Test func theHeadLimitAndASplitSeparatorHoldByteByByte() {
    var parser = HTTPRequestParser(limits: SandboxLimits(maxHeaderBytes: 1_024))
    let long = Array(("GET / HTTP/1.1\r\nX-Long: " + String(repeating: "a", count: 2_000)).utf8)
    let outcomes = Self.feedByteByByte(long, to: &parser)
    guard case .reject(431, _) = outcomes.first else {
      Issue.record("expected 431, got \(outcomes)")
      return
    }
    var fresh = HTTPRequestParser(limits: SandboxLimits())
    let bare = Self.feedByteByByte(
      Array("GET /a HTTP/1.1\n\nGET /b HTTP/1.1\r\n\r\n".utf8), to: &fresh)
    #expect(bare.count == 2)
  }
}
