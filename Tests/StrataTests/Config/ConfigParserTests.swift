import Strata
import Testing

/// Every rule of the configuration syntax, one row each.
@Suite("Config parser")
struct ConfigParserTests {
  struct Valid: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    let expected: [String: String]
    var environment: [String: String] = [:]
    var testDescription: String { name }
  }

  static let valid: [Valid] = [
    Valid(name: "simple", text: "A = b", expected: ["A": "b"]),
    Valid(name: "no spaces around =", text: "A=b", expected: ["A": "b"]),
    Valid(name: "tabs around =", text: "A\t=\tb", expected: ["A": "b"]),
    Valid(name: "spaces before =", text: "A    =b", expected: ["A": "b"]),
    Valid(name: "leading indentation", text: "   A = b", expected: ["A": "b"]),
    Valid(name: "underscore and digits in key", text: "_A1_b = x", expected: ["_A1_b": "x"]),
    Valid(name: "empty value", text: "A =", expected: ["A": ""]),
    Valid(name: "value containing =", text: "A = b=c", expected: ["A": "b=c"]),
    Valid(name: "// comment line", text: "// A = 1\nB = 2", expected: ["B": "2"]),
    Valid(name: "# comment line", text: "# A = 1\nB = 2", expected: ["B": "2"]),
    Valid(name: "#included is a comment", text: "#included by others\nB = 2", expected: ["B": "2"]),
    Valid(name: "blank and whitespace lines", text: "\n  \n\t\nA = 1\n\n", expected: ["A": "1"]),
    Valid(name: "trailing // comment", text: "A = b // note", expected: ["A": "b"]),
    Valid(name: "trailing # comment", text: "A = b # note", expected: ["A": "b"]),
    Valid(name: "comment right after =", text: "A = // nothing", expected: ["A": ""]),
    Valid(name: "# inside a word is text", text: "A = b#c", expected: ["A": "b#c"]),
    Valid(
      name: "unquoted URL keeps //", text: "API = https://dummyjson.com",
      expected: ["API": "https://dummyjson.com"]),
    Valid(
      name: "unquoted URL then comment", text: "API = https://dummyjson.com/x?y=1 // real API",
      expected: ["API": "https://dummyjson.com/x?y=1"]),
    Valid(name: "inner spaces kept", text: "A = hello  world", expected: ["A": "hello  world"]),
    Valid(name: "trailing whitespace trimmed", text: "A = b \t ", expected: ["A": "b"]),
    Valid(name: "quoted // is text", text: "A = \"a // b\"", expected: ["A": "a // b"]),
    Valid(name: "quoted # is text", text: "A = \"x # y\"", expected: ["A": "x # y"]),
    Valid(
      name: "escapes", text: #"A = "q\"b\\s\nn\tt""#, expected: ["A": "q\"b\\s\nn\tt"]),
    Valid(name: "quoted then comment", text: "A = \"v\" // c", expected: ["A": "v"]),
    Valid(name: "quoted then # comment", text: "A = \"v\"   # c", expected: ["A": "v"]),
    Valid(name: "quoted keeps spaces", text: "A = \"  x  \"", expected: ["A": "  x  "]),
    Valid(name: "empty quotes", text: "A = \"\"", expected: ["A": ""]),
    Valid(
      name: "single quotes are literal", text: #"A = 'a $(B) \n "x"'"#,
      expected: ["A": #"a $(B) \n "x""#]),
    Valid(name: "last definition wins", text: "A = 1\nA = 2", expected: ["A": "2"]),
    Valid(name: "CRLF endings", text: "A = 1\r\nB = 2\r\n", expected: ["A": "1", "B": "2"]),
    Valid(name: "CR endings", text: "A = 1\rB = 2\r", expected: ["A": "1", "B": "2"]),
    Valid(
      name: "mixed endings", text: "A = 1\r\nB = 2\nC = 3\rD = 4",
      expected: ["A": "1", "B": "2", "C": "3", "D": "4"]),
    Valid(name: "UTF-8 BOM", text: "\u{FEFF}A = 1", expected: ["A": "1"]),
    Valid(name: "unicode value", text: "A = héllo 🌍 e\u{301}", expected: ["A": "héllo 🌍 e\u{301}"]),
    Valid(name: "$$ is a dollar", text: "A = cost $$5", expected: ["A": "cost $5"]),
    Valid(name: "$$( is not a reference", text: "A = $$(B)", expected: ["A": "$(B)"]),
    Valid(name: "lone $ is literal", text: "A = $5 and $", expected: ["A": "$5 and $"]),
    Valid(name: "$(KEY)", text: "B = x\nA = $(B)/y", expected: ["A": "x/y"]),
    Valid(name: "${KEY}", text: "B = x\nA = ${B}/y", expected: ["A": "x/y"]),
    Valid(
      name: "transitive substitution", text: "C = z\nB = $(C)y\nA = $(B)x",
      expected: ["A": "zyx", "B": "zy"]),
    Valid(
      name: "nested reference in a name", text: "ENV = PROD\nURL_PROD = p\nA = $(URL_$(ENV))",
      expected: ["A": "p"]),
    Valid(name: "reference to a later key", text: "A = $(B)\nB = 1", expected: ["A": "1"]),
    Valid(
      name: "reference sees the final value", text: "B = 1\nA = $(B)\nB = 2",
      expected: ["A": "2"]),
    Valid(
      name: "environment fallback", text: "A = $(HOME_DIR)/x", expected: ["A": "/h/x"],
      environment: ["HOME_DIR": "/h"]),
    Valid(
      name: "config key beats environment", text: "HOME_DIR = /c\nA = $(HOME_DIR)",
      expected: ["A": "/c"], environment: ["HOME_DIR": "/h"]),
    Valid(
      name: "substitution in double quotes", text: "B = 1\nA = \"x $(B)\"", expected: ["A": "x 1"]),
  ]

  @Test(arguments: valid)
  func parses(_ row: Valid) throws {
    let config = try Config(parsing: row.text, name: "t.xcconfig", environment: row.environment)
    for (key, value) in row.expected {
      #expect(config.values[key]?.value == value, "key \(key)")
    }
  }

  struct Invalid: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    let kind: ConfigError.Kind
    let line: Int
    let column: Int
    var testDescription: String { name }
  }

  static let invalid: [Invalid] = [
    Invalid(
      name: "unterminated \"", text: "A = \"abc", kind: .unterminatedQuote, line: 1, column: 5),
    Invalid(
      name: "unterminated ' on line 3", text: "X = 1\n\n  B = 'abc", kind: .unterminatedQuote,
      line: 3, column: 7),
    Invalid(
      name: "unterminated after escaped quote", text: #"A = "abc\""#, kind: .unterminatedQuote,
      line: 1, column: 5),
    Invalid(
      name: "unterminated on a CRLF line", text: "A = 1\r\nB = \"x\r\nC = 2",
      kind: .unterminatedQuote,
      line: 2, column: 5),
    Invalid(
      name: "BOM does not shift columns", text: "\u{FEFF}A = \"x", kind: .unterminatedQuote,
      line: 1,
      column: 5),
    Invalid(name: "invalid escape", text: #"A = "a\qb""#, kind: .invalidEscape, line: 1, column: 7),
    Invalid(
      name: "text after quote", text: "A = \"a\" b", kind: .unexpectedText, line: 1, column: 9),
    Invalid(name: "missing =", text: "A b", kind: .expectedEquals, line: 1, column: 3),
    Invalid(name: "key only", text: "\nA", kind: .expectedEquals, line: 2, column: 2),
    Invalid(name: "key starts with digit", text: "1A = x", kind: .invalidKey, line: 1, column: 1),
    Invalid(name: "dash in key", text: "A-B = x", kind: .expectedEquals, line: 1, column: 2),
    Invalid(name: "bare = line", text: "= x", kind: .invalidKey, line: 1, column: 1),
    Invalid(
      name: "undefined variable", text: "A = x$(NOPE)", kind: .undefinedVariable(name: "NOPE"),
      line: 1, column: 6),
    Invalid(
      name: "substitution cycle", text: "A = $(B)\nB = $(C)\nC = $(A)",
      kind: .substitutionCycle(chain: ["A", "B", "C", "A"]), line: 3, column: 5),
    Invalid(
      name: "self reference", text: "A = x$(A)", kind: .substitutionCycle(chain: ["A", "A"]),
      line: 1, column: 6),
    Invalid(name: "unterminated $(", text: "A = $(B", kind: .invalidReference, line: 1, column: 5),
    Invalid(name: "empty $()", text: "A = $()", kind: .invalidReference, line: 1, column: 5),
    Invalid(name: "space in $( )", text: "A = $(B C)", kind: .invalidReference, line: 1, column: 8),
    Invalid(
      name: "mismatched ${ )", text: "A = ${B)", kind: .invalidReference, line: 1, column: 8),
    Invalid(
      name: "include without quotes", text: "#include foo", kind: .malformedInclude, line: 1,
      column: 1),
    Invalid(
      name: "include unterminated", text: "#include \"foo", kind: .unterminatedQuote, line: 1,
      column: 10),
    Invalid(
      name: "text after include", text: "#include \"a\" b", kind: .unexpectedText, line: 1,
      column: 14),
    // Columns count scalars, not bytes: 2-, 3- and 4-byte scalars before the error.
    Invalid(
      name: "invalid escape after é€", text: #"A = "é€\qb""#, kind: .invalidEscape, line: 1,
      column: 8),
    Invalid(
      name: "undefined variable after an emoji", text: "A = 😀x$(NOPE)",
      kind: .undefinedVariable(name: "NOPE"), line: 1, column: 7),
    Invalid(
      name: "é in a variable name", text: "A = ü$(Bé)", kind: .invalidReference, line: 1,
      column: 9),
    Invalid(name: "é in a key", text: "Aé = 1", kind: .expectedEquals, line: 1, column: 2),
  ]

  /// A message quotes the whole scalar it stopped at, not one of its bytes.
  @Test func messagesQuoteWholeScalars() throws {
    for (text, quoted) in [("Aé = 1", #"'\u{00E9}'"#), ("A = $(B😀)", #"'\u{0001F600}'"#)] {
      let error = try #require(throws: ConfigError.self) { try Config(parsing: text) }
      #expect(error.message.contains(quoted), "\(error.message)")
    }
  }

  @Test(arguments: invalid)
  func rejects(_ row: Invalid) throws {
    let error = try #require(throws: ConfigError.self) {
      try Config(parsing: row.text, name: "t.xcconfig")
    }
    #expect(error.kind == row.kind)
    #expect(
      error.location == SourceLocation(file: "t.xcconfig", line: row.line, column: row.column))
    #expect(error.description.hasPrefix("t.xcconfig:\(row.line):\(row.column): "))
  }

  @Test func cycleMessageNamesTheChain() throws {
    let error = try #require(throws: ConfigError.self) {
      try Config(parsing: "A = $(B)\nB = $(A)", name: "c.xcconfig")
    }
    #expect(error.description == "c.xcconfig:2:5: substitution cycle: A → B → A")
  }

  @Test func invalidUTF8IsAnErrorAtItsColumn() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write(
      "bad.xcconfig", bytes: Array("A = 1\nB = ab".utf8) + [0xFF, 0x41])
    let error = try #require(throws: ConfigError.self) { try Config(file: path, environment: [:]) }
    #expect(error.kind == .invalidEncoding)
    #expect(error.location?.line == 2)
    #expect(error.location?.column == 7)
  }

  @Test func provenanceRecordsFileAndLine() throws {
    let config = try Config(parsing: "// header\n\nA = 1\n  B = 2", name: "p.xcconfig")
    #expect(
      config.value("A")?.origin == .file(SourceLocation(file: "p.xcconfig", line: 3, column: 1)))
    #expect(
      config.value("B")?.origin == .file(SourceLocation(file: "p.xcconfig", line: 4, column: 3)))
    #expect(config.value("B")?.origin.description == "p.xcconfig:4")
  }

  @Test func duplicatesAreReportedWithBothLocations() throws {
    let config = try Config(parsing: "A = 1\nB = 2\nA = 3", name: "d.xcconfig")
    #expect(config.value("A")?.value == "3")
    #expect(
      config.duplicates == [
        ConfigDuplicate(
          key: "A", previous: SourceLocation(file: "d.xcconfig", line: 1, column: 1),
          winner: SourceLocation(file: "d.xcconfig", line: 3, column: 1))
      ])
    #expect(config.duplicates.first?.description.contains("d.xcconfig:1:1") == true)
    #expect(config.duplicates.first?.description.contains("d.xcconfig:3:1") == true)
  }
}
