import Foundation
import Strata
import StrataConcurrency
import Testing

/// Collects what a handler writes.
final class CapturingOutput: Sendable {
  private let storage = Lock<[String]>([])
  var lines: [String] { storage.withLock { $0 } }
  var write: @Sendable (String) -> Void { { line in self.storage.withLock { $0.append(line) } } }
}

@Suite("Log handlers")
struct LogHandlerTests {
  static let tricky = "quote \" backslash \\ newline \n tab \t bell \u{07} unicode é🌍"

  @Test func jsonHandlerOutputParsesAsJSON() throws {
    let sink = CapturingOutput()
    let record = LogRecord(
      timestamp: Date(timeIntervalSince1970: 1_700_000_000.123), level: .warning,
      category: "net\"work", message: Self.tricky, file: "Strata/X.swift", line: 42)
    JSONLogSink(write: sink.write).log(record)
    let line = try #require(sink.lines.first)
    #expect(line.hasSuffix("\n"))
    #expect(line.dropLast().contains("\n") == false)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["message"] as? String == Self.tricky)
    #expect(object["level"] as? String == "warning")
    #expect(object["category"] as? String == "net\"work")
    #expect(object["timestamp"] as? String == "2023-11-14T22:13:20.123Z")
    #expect(object["file"] as? String == "Strata/X.swift")
    #expect(object["line"] as? Int == 42)
  }

  @Test func textHandlerWritesOneLinePerRecord() throws {
    let sink = CapturingOutput()
    let record = LogRecord(
      timestamp: Date(timeIntervalSince1970: 0), level: .info, category: "auth",
      message: "line one\nforged line\r")
    TextLogSink(write: sink.write).log(record)
    #expect(sink.lines == ["1970-01-01T00:00:00.000Z info     [auth] line one\\nforged line\\r\n"])
  }

  @Test(arguments: [
    (0.0, "1970-01-01T00:00:00.000Z"),
    (951_782_400.5, "2000-02-29T00:00:00.500Z"),
    (1_709_164_799.999, "2024-02-28T23:59:59.999Z"),
    (1_709_251_200, "2024-03-01T00:00:00.000Z"),
    (4_102_444_800, "2100-01-01T00:00:00.000Z"),
    (-1, "1969-12-31T23:59:59.000Z"),
  ])
  func isoTimestamps(_ seconds: Double, _ expected: String) {
    let record = LogRecord(
      timestamp: Date(timeIntervalSince1970: seconds), level: .info, category: "c", message: "m")
    #expect(record.isoTimestamp == expected)
  }
}

@Suite("Redaction")
struct RedactorTests {
  static let headerNames = [
    "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key",
  ]

  static func variants(_ name: String) -> [String] {
    let alternating = String(
      name.enumerated().map {
        $0.offset.isMultiple(of: 2)
          ? Character($0.element.uppercased()) : Character($0.element.lowercased())
      })
    return [name, name.lowercased(), name.uppercased(), alternating]
  }

  @Test(arguments: headerNames.flatMap(variants))
  func sensitiveHeadersAreRedactedInAnyCase(_ name: String) {
    let redactor = Redactor.standard
    #expect(redactor.isSensitive(header: name))
    let redacted = redactor.redact(headers: [name: "Bearer tok-abc", "Accept": "application/json"])
    #expect(redacted[name] == "<redacted>")
    #expect(redacted["Accept"] == "application/json")
  }

  @Test func ordinaryHeadersPassThrough() {
    for name in ["Accept", "Content-Type", "User-Agent", "X-Request-Id", "X-Author"] {
      #expect(!Redactor.standard.isSensitive(header: name), "\(name)")
    }
  }

  @Test func jsonBodyFieldsAreRedactedAtAnyDepth() throws {
    let body = Data(
      #"{"username":"emilys","password":"emilyspass","nested":{"accessToken":"a1","list":[{"refresh_token":"r1"},{"Token":"t1"}]},"id":5}"#
        .utf8)
    let text = Redactor.standard.redact(body: body)
    for secret in ["emilyspass", "a1", "r1", "t1"] {
      #expect(!text.contains("\"\(secret)\""), "\(secret)")
    }
    #expect(text.contains("\"username\":\"emilys\""))
    #expect(text.contains("\"id\":5"))
    #expect(text.contains("<redacted>"))
  }

  @Test func nonJSONBodiesAreSummarisedNotPrinted() {
    let text = Redactor.standard.redact(body: Data("password=hunter2&user=x".utf8))
    #expect(text == "<23 bytes, not JSON>")
    #expect(Redactor.standard.redact(body: Data()) == "<empty>")
  }

  @Test func longBodiesAreCut() {
    let body = Data(("[" + Array(repeating: "1", count: 2000).joined(separator: ",") + "]").utf8)
    let text = Redactor.standard.redact(body: body, limit: 100)
    #expect(text.count < 130)
    #expect(text.hasSuffix("(\(body.count) bytes)"))
  }

  @Test func secretQueryParametersAreRedacted() throws {
    let url = try #require(URL(string: "https://api.example/x?token=abc&page=2&api_key=k9"))
    let text = Redactor.standard.redact(url: url)
    #expect(!text.contains("abc") && !text.contains("k9"))
    #expect(text.contains("page=2"))
  }
}
