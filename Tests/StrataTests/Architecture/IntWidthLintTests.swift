import Foundation
import StrataTesting
import Testing

/// `Int` is 32 bits on watchOS (arm64_32), which nothing here compiles for: a number spelled
/// past `Int32.max` fails to compile there (a literal, a product of literals), a shift past
/// bit 30 silently becomes 0 (`1 << 32`), and `Int(stat.st_size)` traps on a file over 2 GiB.
/// So every such number in `Sources/` names its width on its line (`Int64(…)`, `: UInt64`,
/// `Int(clamping: Int64(1) << 40)`), and a file's size is converted with `clamping:`.
/// Hexadecimal and binary literals are bit patterns, always given to a fixed-width type, and
/// are not looked at.
@Suite("Numbers fit where Int is 32 bits")
struct IntWidthLintTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Names that say a line's numbers are wider than `Int` (`attoseconds` is `Duration`'s
  /// `Int64`).
  static let wideTypes =
    ["Int64", "UInt64", "UInt32", "Double", "TimeInterval", "Float"]
    + ["attoseconds"]

  /// `file:line: text` for each line with a number past `Int32.max` that does not name its
  /// width, and each `Int(….st_…)` without `clamping:`.
  static func violations(in text: String, file: String) -> [String] {
    var found: [String] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      let code = Self.code(of: line)
      let wide = wideTypes.contains { line.contains($0) }
      if !wide, Self.largest(in: code) > Int64(Int32.max) {
        found.append("\(file):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
      } else if code.contains(".st_"),
        code.range(of: #"\bInt\([\w.]*\.st_\w+\)"#, options: .regularExpression) != nil
      {
        found.append("\(file):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
      }
    }
    return found
  }

  /// `line` without its comment and the insides of its string literals.
  static func code(of line: Substring) -> String {
    var code = ""
    var (inString, escaped, previous) = (false, false, Character(" "))
    for character in line {
      defer { previous = character }
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
          code.append(character)
        }
        continue
      }
      if character == "/", previous == "/" {
        code.removeLast()
        break
      }
      if character == "\"" { inString = true }
      code.append(character)
    }
    return code
  }

  /// The largest value of a decimal literal, or of a chain of them joined by `*` or `<<`
  /// (left to right), in `code`; `Int64.max` for one past it.
  static func largest(in code: String) -> Int64 {
    var largest: Int64 = 0
    var chain: Int64?
    var pending: String?
    let characters = Array(code)
    var index = 0
    while index < characters.count {
      let character = characters[index]
      let before = index > 0 ? characters[index - 1] : " "
      if character.isNumber, !(before.isLetter || before.isNumber || before == "_" || before == ".")
      {
        var token = ""
        while index < characters.count,
          characters[index].isLetter || characters[index].isNumber || characters[index] == "_"
            || (characters[index] == "." && index + 1 < characters.count
              && characters[index + 1].isNumber)
        {
          token.append(characters[index])
          index += 1
        }
        // A decimal integer only: hex, binary and octal are bit patterns; a float is not Int.
        guard let value = Int64(token.replacingOccurrences(of: "_", with: "")) else {
          if token.allSatisfy({ $0.isNumber || $0 == "_" }) { largest = .max }
          (chain, pending) = (nil, nil)
          continue
        }
        chain = Self.apply(pending, chain, value)
        pending = nil
        largest = max(largest, chain ?? .max)
        continue
      }
      if character == "*", chain != nil {
        pending = "*"
      } else if character == "<", index + 1 < characters.count, characters[index + 1] == "<",
        chain != nil
      {
        pending = "<<"
        index += 1
      } else if !character.isWhitespace {
        (chain, pending) = (nil, nil)
      }
      index += 1
    }
    return largest
  }

  /// `chain` `operation` `value`, saturating at `Int64.max`; `value` alone without one.
  private static func apply(_ operation: String?, _ chain: Int64?, _ value: Int64) -> Int64 {
    guard let operation, let chain else { return value }
    if operation == "<<" {
      guard value < 63, chain <= Int64.max >> value else { return .max }
      return chain << value
    }
    let product = chain.multipliedReportingOverflow(by: value)
    return product.overflow ? .max : product.partialValue
  }

  @Test func everyNumberInSourcesFitsOrNamesItsWidth() async throws {
    let (files, found) = try await offThePool { () throws -> (Int, [String]) in
      var (files, found) = (0, [String]())
      let base = Self.root.appendingPathComponent("Sources").path
      let names = FileManager.default.enumerator(atPath: base)?.allObjects as? [String] ?? []
      for name in names where name.hasSuffix(".swift") {
        let text = try String(contentsOfFile: base + "/" + name, encoding: .utf8)
        found += Self.violations(in: text, file: "Sources/" + name)
        files += 1
      }
      return (files, found)
    }
    #expect(files > 300, "the tree was read")
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  /// The check itself: each spelling that breaks where `Int` is 32 bits is found in a planted
  /// file, and each that is safe is left alone.
  @Test func theCheckFindsEachSpellingThatBreaks() {
    let planted = """
      static let maxSeconds = 2_147_483_648
      static let largestFile = 1 << 32
      let limit = 0...(1 << 40)
      private static let longest = Duration.seconds(100 * 365 * 86_400)
      let size = Int(info.st_size)
      let tooMany = 99999999999999999999
      """
    let found = Self.violations(in: planted, file: "P.swift")
    #expect(
      found.map { $0.split(separator: ":")[1] } == ["1", "2", "3", "4", "5", "6"], "\(found)")
    let safe = """
      static let maxSeconds = Int(clamping: Int64(1) << 31)
      let near = 2_147_483_647
      let mebibytes = 50 << 20
      let fine = 1 << 30
      let longest = Duration.seconds(Int64(100 * 365) * 86_400)
      let pattern: UInt64 = 0x9E37_79B9_7F4A_7C15
      let mask = 0xFFFF_FFFF_FFFF
      let text = "1 << 40 and 4294967296"
      let note = 3  // 1 << 40 in a comment
      let rate = 1.5e10
      let size = Int(clamping: info.st_size)
      let milliseconds = duration.components.attoseconds / 1_000_000_000_000_000
      let sum = a.x1 * 2_000_000_000
      """
    #expect(
      Self.violations(in: safe, file: "S.swift").isEmpty,
      "\(Self.violations(in: safe, file: "S.swift"))")
  }
}
