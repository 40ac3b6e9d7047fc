import Foundation
import StrataTesting
import Testing

/// Apple's URLSession may sniff an answer's type: without `Content-Type` it holds back up to
/// 512 bytes before it hands any over, which can empty a short stream in a test. So every
/// success head the tests, the benchmarks and the sandbox write by hand names its type and
/// says `X-Content-Type-Options: nosniff`.
@Suite("Canned answers are never sniffed")
struct SniffingHeadersTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `file:line` of each hand-written success head (a literal `"HTTP/1.1 2…`, not in an
  /// expectation, with a body) whose text — that line and the lines that go on with it (`+ "…"`,
  /// `head += "…"`) — lacks either header.
  static func violations(in text: String, file: String) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    return lines.indices.compactMap { index in
      let line = lines[index]
      guard line.contains("\"HTTP/1.1 2"), !line.contains("#expect"), !line.contains("hasPrefix")
      else { return nil }
      var end = index + 1
      while end < lines.count {
        let next = lines[end].trimmingCharacters(in: .whitespaces)
        let goesOn =
          next.hasPrefix("+ \"") || next.hasPrefix("\"")
          || next.range(of: #"^\w+ \+= ""#, options: .regularExpression) != nil
        guard goesOn else { break }
        end += 1
      }
      let statement = lines[index..<end].joined(separator: "\n")
      // An empty body has nothing to sniff.
      guard !statement.contains("Content-Length: 0\\r\\n") else { return nil }
      let named = statement.contains("Content-Type: ")
      let unsniffed = statement.contains("X-Content-Type-Options: nosniff")
      return named && unsniffed ? nil : "\(file):\(index + 1)"
    }
  }

  @Test func everyHandWrittenSuccessHeadNamesItsTypeAndForbidsSniffing() async throws {
    let found = try await offThePool { () throws -> [String] in
      var found: [String] = []
      for folder in ["Sources", "Tests"] {
        let base = Self.root.appendingPathComponent(folder).path
        let names = FileManager.default.enumerator(atPath: base)?.allObjects as? [String] ?? []
        for name in names where name.hasSuffix(".swift") && !name.contains("Architecture/") {
          let text = try String(contentsOfFile: base + "/" + name, encoding: .utf8)
          guard text.contains("HTTP/1.1 2") else { continue }
          found += Self.violations(in: text, file: folder + "/" + name)
        }
      }
      return found
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  @Test func theCheckFindsAHeadThatMaySniff() {
    let planted = """
      let bare = "HTTP/1.1 200 OK\\r\\nContent-Length: 3\\r\\n\\r\\none"
      let typed = "HTTP/1.1 200 OK\\r\\nContent-Type: text/plain\\r\\n\\r\\n"
      let both = "HTTP/1.1 200 OK\\r\\nContent-Type: text/plain\\r\\n"
        + "X-Content-Type-Options: nosniff\\r\\n\\r\\n"
      #expect(answer.hasPrefix("HTTP/1.1 200 OK"))
      """
    #expect(Self.violations(in: planted, file: "P.swift") == ["P.swift:1", "P.swift:2"])
  }
}
