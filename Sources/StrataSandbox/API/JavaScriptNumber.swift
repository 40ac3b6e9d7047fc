import Foundation

/// How the real service reads a number from a query: `isNumber` is JavaScript's
/// `!isNaN(Number(text))`, the value used is `parseInt(text, 10)`. The two disagree, and the
/// service shows it: `limit=1e1` passes the check as 10 and pages 1 item, `limit=` passes as
/// 0 and pages none, `limit=-1` passes and drops the last item (`Array.slice(0, -1)`).
enum JavaScriptNumber {
  /// `Number(text)`, or nil where JavaScript gives `NaN`. Decimal literals with an optional
  /// sign, fraction and exponent, `Infinity`, unsigned `0x`/`0o`/`0b` integers, surrounding
  /// white space; an empty or all-blank text is 0. No digit separators, no `NaN` text.
  static func number(_ text: String) -> Double? {
    let scalars = Array(trimmed(text))
    guard !scalars.isEmpty else { return 0 }
    let literal = String(String.UnicodeScalarView(scalars))
    if let radix = radixPrefix(scalars) {
      let digits = scalars.dropFirst(2)
      guard !digits.isEmpty else { return nil }
      var value = 0.0
      for scalar in digits {
        guard let digit = Int(String(scalar), radix: radix) else { return nil }
        value = value * Double(radix) + Double(digit)
      }
      return value
    }
    var unsigned = Substring(literal)
    var sign = 1.0
    if let first = unsigned.first, first == "+" || first == "-" {
      sign = first == "-" ? -1 : 1
      unsigned = unsigned.dropFirst()
    }
    if unsigned == "Infinity" { return sign * .infinity }
    guard isDecimalLiteral(unsigned), let value = Double(unsigned) else { return nil }
    return sign * value
  }

  /// `parseInt(text, 10)`: leading white space, an optional sign, then as many decimal digits
  /// as there are; nil (`NaN`) when there is no digit. Beyond `Int`'s range it saturates,
  /// which keeps every comparison the service makes with the value (`limit > count`) true.
  static func parseInt(_ text: String) -> Int? {
    var rest = Substring(String(String.UnicodeScalarView(trimmedFront(text))))
    var negative = false
    if let first = rest.first, first == "+" || first == "-" {
      negative = first == "-"
      rest = rest.dropFirst()
    }
    let digits = rest.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty else { return nil }
    var value = 0
    for digit in digits.utf8 {
      let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowSum) = times.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
      guard !overflowTimes, !overflowSum else { return negative ? -Int.max : Int.max }
      value = sum
    }
    return negative ? -value : value
  }

  /// `Array.prototype.slice(0, end)` for an `end` from `parseInt`: negative counts from the
  /// end, nil (`NaN`) is 0.
  static func prefixCount(_ end: Int?, of count: Int) -> Int {
    guard let end else { return 0 }
    return end < 0 ? max(0, count + end) : min(end, count)
  }

  private static func radixPrefix(_ scalars: [Unicode.Scalar]) -> Int? {
    guard scalars.count >= 2, scalars[0] == "0" else { return nil }
    switch scalars[1] {
    case "x", "X": return 16
    case "o", "O": return 8
    case "b", "B": return 2
    default: return nil
    }
  }

  /// Digits with at most one `.` and at least one digit, then an optional exponent.
  private static func isDecimalLiteral(_ text: Substring) -> Bool {
    let parts = text.split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
      .flatMap { $0.split(separator: "E", maxSplits: 1, omittingEmptySubsequences: false) }
    guard parts.count <= 2, let mantissa = parts.first else { return false }
    let halves = mantissa.split(separator: ".", omittingEmptySubsequences: false)
    guard halves.count <= 2, halves.contains(where: { !$0.isEmpty }),
      halves.allSatisfy({ $0.allSatisfy(isDigit) })
    else { return false }
    guard parts.count == 2 else { return true }
    var exponent = parts[1]
    if let first = exponent.first, first == "+" || first == "-" { exponent = exponent.dropFirst() }
    return !exponent.isEmpty && exponent.allSatisfy(isDigit)
  }

  private static func isDigit(_ character: Character) -> Bool {
    character.isASCII && character.isNumber
  }

  /// JavaScript's white space and line terminators (not Unicode's: U+0085 is not one).
  private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09...0x0D, 0x20, 0xA0, 0xFEFF, 0x2028, 0x2029: true
    default: scalar.properties.generalCategory == .spaceSeparator
    }
  }

  private static func trimmedFront(_ text: String) -> Substring.UnicodeScalarView {
    Substring(text).unicodeScalars.drop(while: isSpace)
  }

  private static func trimmed(_ text: String) -> [Unicode.Scalar] {
    var scalars = Array(trimmedFront(text))
    while let last = scalars.last, isSpace(last) { scalars.removeLast() }
    return scalars
  }
}
