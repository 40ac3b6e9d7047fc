import Foundation
import Testing

@testable import strata_demo

/// `--json` is read by programs and by people at a terminal: a line or paragraph separator
/// (U+2028, U+2029, which end a line in JavaScript and in some terminals) or a bidirectional
/// override in a server's text is written escaped, never raw, and stays the same text.
@Suite("strata-demo --json: control characters escaped")
struct JSONOutputTests {
  @Test func separatorsAndOverridesAreEscaped() throws {
    let hostile = "a\u{2028}b\u{2029}c\u{202E}d\u{85}e"
    let json = try Output.json(["text": hostile])
    for raw: Unicode.Scalar in ["\u{2028}", "\u{2029}", "\u{202E}", "\u{85}"] {
      #expect(!json.unicodeScalars.contains(raw), "\(json)")
    }
    #expect(json.contains(#"\u2028"#) && json.contains(#"\u2029"#) && json.contains(#"\u202e"#))
    let decoded = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
    #expect(decoded["text"] == hostile, "the same text once read back")
  }
}
