import Foundation

/// One JSON object's members, found by a single pass over its bytes, each value left as bytes
/// until asked for. A reopen reads a line per change — 100,000 and more — and `JSONDecoder`
/// spends most of that time on its own generic machinery, not on the JSON; the store's own line
/// types read themselves through this instead (``StoreLine``). It is deliberately narrower
/// than JSON: any key with an escape, a repeated key, or a value it cannot read exactly gives
/// nil, and the caller leaves the line to `JSONDecoder`, the reference for what a line means.
struct JSONObject {
  private let bytes: ArraySlice<UInt8>
  /// Key (without quotes) and value ranges in `bytes`, in order.
  private var members: [(key: Range<Int>, value: Range<Int>)] = []

  /// The object that is the whole of `bytes` (whitespace around it allowed).
  init?(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    var index = Self.skipSpace(bytes, bytes.startIndex)
    guard index < bytes.endIndex, let end = scanObject(from: index), end <= bytes.endIndex else {
      return nil
    }
    index = Self.skipSpace(bytes, end)
    guard index == bytes.endIndex else { return nil }
  }

  /// The value under `key`: nil when absent.
  func value(_ key: StaticString) -> Value? { value(named: key.bytes) }

  /// Whether every key is one of `keys`: a line with a key this build does not know (a newer
  /// build's field) is left to `JSONDecoder`.
  func hasOnly(_ keys: StaticString...) -> Bool {
    members.allSatisfy { member in
      keys.contains { bytes[member.key].elementsEqual($0.bytes) }
    }
  }

  var count: Int { members.count }

  /// The value under `key` (a coding key's name): nil when absent.
  func value(named key: String) -> Value? {
    var key = key
    return key.withUTF8 { value(named: $0) }
  }

  private func value(named name: UnsafeBufferPointer<UInt8>) -> Value? {
    for member in members where bytes[member.key].elementsEqual(name) {
      return Value(bytes: bytes[member.value])
    }
    return nil
  }

  /// Every key, as written (keys never hold an escape here: such an object is not read).
  var keys: [String] { members.map { String(decoding: bytes[$0.key], as: UTF8.self) } }

  /// One member's value, read on demand.
  struct Value {
    let bytes: ArraySlice<UInt8>

    var isNull: Bool { bytes.elementsEqual("null".utf8) }

    var object: JSONObject? { JSONObject(bytes) }

    /// The elements of an array, each left as bytes; nil when this is not one.
    var elements: [Value]? {
      guard bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { return nil }
      var found: [Value] = []
      var index = JSONObject.skipSpace(bytes, bytes.startIndex + 1)
      if index == bytes.endIndex - 1 { return found }
      while index < bytes.endIndex - 1 {
        // An element that runs to the end took the closing bracket (`[[1]`): not an array.
        guard let end = JSONObject.valueEnd(bytes, index), end < bytes.endIndex else { return nil }
        found.append(Value(bytes: bytes[index..<end]))
        index = JSONObject.skipSpace(bytes, end)
        if index == bytes.endIndex - 1 { return found }
        guard bytes[index] == UInt8(ascii: ",") else { return nil }
        index = JSONObject.skipSpace(bytes, index + 1)
      }
      return nil
    }

    /// `true` or `false`; nil for anything else.
    var bool: Bool? {
      if bytes.elementsEqual("true".utf8) { return true }
      return bytes.elementsEqual("false".utf8) ? false : nil
    }

    /// A string without escapes, or with the escapes JSON defines; nil for anything else
    /// (not a string, invalid UTF-8, a raw control character, a lone surrogate).
    var string: String? {
      guard bytes.count >= 2, bytes.first == quote, bytes.last == quote else { return nil }
      let inner = bytes.dropFirst().dropLast()
      // One pass decides: an escape needs unescaping, a raw control character is not JSON,
      // and only text with a byte past ASCII needs its UTF-8 checked.
      var ascii = true
      for byte in inner {
        if byte == backslash { return Self.unescape(inner) }
        if byte < 0x20 { return nil }
        if byte >= 0x80 { ascii = false }
      }
      return ascii ? String(decoding: inner, as: UTF8.self) : String(wellFormedUTF8: inner)
    }

    /// An integer written as JSON writes one (no fraction, exponent or leading zero), nil when
    /// it overflows `Int`.
    var int: Int? {
      guard JSONObject.numberEnd(bytes, bytes.startIndex) == bytes.endIndex,
        !bytes.contains(where: { $0 == dot || $0 | 0x20 == UInt8(ascii: "e") })
      else { return nil }
      return Int(String(decoding: bytes, as: UTF8.self))
    }

    /// A UUID in its usual text (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, either case).
    var uuid: UUID? {
      guard bytes.count == 38, bytes.first == quote, bytes.last == quote else { return nil }
      return UUIDText.parse(bytes.dropFirst().dropLast())
    }

    /// A JSON number as the nearest Double (the same rounding `JSONDecoder` uses).
    var double: Double? {
      guard JSONObject.numberEnd(bytes, bytes.startIndex) == bytes.endIndex else { return nil }
      return Double(String(decoding: bytes, as: UTF8.self)).flatMap { $0.isFinite ? $0 : nil }
    }

    private static func unescape(_ inner: ArraySlice<UInt8>) -> String? {
      var out: [UInt8] = []
      out.reserveCapacity(inner.count)
      var index = inner.startIndex
      while index < inner.endIndex {
        let byte = inner[index]
        guard byte >= 0x20 else { return nil }
        guard byte == backslash else {
          out.append(byte)
          index += 1
          continue
        }
        guard index + 1 < inner.endIndex else { return nil }
        let escape = inner[index + 1]
        index += 2
        switch escape {
        case quote, backslash, UInt8(ascii: "/"): out.append(escape)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
          guard let (scalar, next) = unicodeEscape(inner, at: index) else { return nil }
          out.append(contentsOf: String(Character(scalar)).utf8)
          index = next
        default: return nil
        }
      }
      return String(wellFormedUTF8: out)
    }

    /// The scalar of `\uXXXX` (and of its low surrogate's `\uXXXX` after a high one) whose
    /// hex digits start at `index`, and the index after it.
    private static func unicodeEscape(_ inner: ArraySlice<UInt8>, at index: Int)
      -> (Unicode.Scalar, Int)?
    {
      guard let high = hex4(inner, index) else { return nil }
      if !(0xD800...0xDFFF).contains(high) {
        return Unicode.Scalar(high).map { ($0, index + 4) }
      }
      guard high < 0xDC00, index + 10 <= inner.endIndex, inner[index + 4] == backslash,
        inner[index + 5] == UInt8(ascii: "u"), let low = hex4(inner, index + 6),
        (0xDC00...0xDFFF).contains(low)
      else { return nil }
      let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
      return Unicode.Scalar(value).map { ($0, index + 10) }
    }

    private static func hex4(_ bytes: ArraySlice<UInt8>, _ index: Int) -> UInt32? {
      guard index + 4 <= bytes.endIndex else { return nil }
      var value: UInt32 = 0
      for byte in bytes[index..<(index + 4)] {
        guard let digit = hexValue(byte) else { return nil }
        value = value << 4 | digit
      }
      return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
      default: nil
      }
    }
  }

  // MARK: Scanning

  /// More members than any of the store's line types has.
  static let maxMembers = 16

  /// Records the members of the object starting at `start` (a `{`); the index after its `}`.
  private mutating func scanObject(from start: Int) -> Int? {
    guard bytes[start] == UInt8(ascii: "{") else { return nil }
    var index = Self.skipSpace(bytes, start + 1)
    if index < bytes.endIndex, bytes[index] == UInt8(ascii: "}") { return index + 1 }
    while index < bytes.endIndex {
      guard bytes[index] == quote, let keyEnd = Self.stringEnd(bytes, index) else { return nil }
      let key = (index + 1)..<(keyEnd - 1)
      // The store's line types have a handful of keys; a line with many more (damage, or a
      // file written by someone else) goes to JSONDecoder rather than to the quadratic check
      // for a repeated key below.
      guard members.count < Self.maxMembers, !bytes[key].contains(backslash),
        !members.contains(where: { bytes[$0.key].elementsEqual(bytes[key]) })
      else { return nil }
      index = Self.skipSpace(bytes, keyEnd)
      guard index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") else { return nil }
      let valueStart = Self.skipSpace(bytes, index + 1)
      guard let valueEnd = Self.valueEnd(bytes, valueStart) else { return nil }
      members.append((key, valueStart..<valueEnd))
      index = Self.skipSpace(bytes, valueEnd)
      guard index < bytes.endIndex else { return nil }
      if bytes[index] == UInt8(ascii: "}") { return index + 1 }
      guard bytes[index] == UInt8(ascii: ",") else { return nil }
      index = Self.skipSpace(bytes, index + 1)
    }
    return nil
  }

  /// The index after the value starting at `start`. Nested objects and arrays are matched up
  /// (strings inside them skipped whole), not checked: a value is checked when it is read.
  fileprivate static func valueEnd(_ bytes: ArraySlice<UInt8>, _ start: Int) -> Int? {
    guard start < bytes.endIndex else { return nil }
    switch bytes[start] {
    case quote:
      return stringEnd(bytes, start)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      var index = start
      while index < bytes.endIndex {
        switch bytes[index] {
        case quote:
          guard let end = stringEnd(bytes, index) else { return nil }
          index = end
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return index + 1 }
        default: break
        }
        index += 1
      }
      return nil
    case UInt8(ascii: "n"):
      return literalEnd(bytes, start, "null")
    case UInt8(ascii: "t"):
      return literalEnd(bytes, start, "true")
    case UInt8(ascii: "f"):
      return literalEnd(bytes, start, "false")
    default:
      return numberEnd(bytes, start)
    }
  }

  private static func literalEnd(_ bytes: ArraySlice<UInt8>, _ start: Int, _ word: String)
    -> Int?
  {
    let end = start + word.utf8.count
    guard end <= bytes.endIndex, bytes[start..<end].elementsEqual(word.utf8) else { return nil }
    return end
  }

  /// The index after the closing quote of the string opening at `start`.
  private static func stringEnd(_ bytes: ArraySlice<UInt8>, _ start: Int) -> Int? {
    var index = start + 1
    while index < bytes.endIndex {
      switch bytes[index] {
      case quote: return index + 1
      case backslash: index += 2
      default: index += 1
      }
    }
    return nil
  }

  /// The index after a number in JSON's grammar starting at `start`
  /// (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`), nil when there is none.
  fileprivate static func numberEnd(_ bytes: ArraySlice<UInt8>, _ start: Int) -> Int? {
    var index = start
    func digits() -> Int {
      let first = index
      while index < bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
        index += 1
      }
      return index - first
    }
    if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") { index += 1 }
    let leading = index
    let integerDigits = digits()
    guard integerDigits > 0, integerDigits == 1 || bytes[leading] != UInt8(ascii: "0") else {
      return nil
    }
    if index < bytes.endIndex, bytes[index] == dot {
      index += 1
      guard digits() > 0 else { return nil }
    }
    if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      if index < bytes.endIndex,
        bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits() > 0 else { return nil }
    }
    return index
  }

  fileprivate static func skipSpace(_ bytes: ArraySlice<UInt8>, _ start: Int) -> Int {
    var index = start
    while index < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    return index
  }
}

extension StaticString {
  /// A literal key's UTF-8 (the store's keys are string literals, stored as bytes).
  fileprivate var bytes: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount)
  }
}

private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")
private let dot = UInt8(ascii: ".")
