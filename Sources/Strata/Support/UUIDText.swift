import Foundation

/// A UUID's usual text (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`) read and written without the
/// C library's `sscanf` and `sprintf` that Foundation's `UUID(uuidString:)` and `uuidString`
/// use on Linux: a reopened store reads two of them per change, and those calls were a tenth
/// of the time it took.
enum UUIDText {
  /// The UUID `text` spells (36 bytes; hex digits of either case, or only upper case when
  /// `uppercaseOnly`, so that the text is exactly what ``string(_:)`` gives back).
  static func parse(_ text: some Collection<UInt8>, uppercaseOnly: Bool = false) -> UUID? {
    guard text.count == 36 else { return nil }
    if let parsed = text.withContiguousStorageIfAvailable({ parse($0, uppercaseOnly) }) {
      return parsed
    }
    return Array(text).withUnsafeBufferPointer { parse($0, uppercaseOnly) }
  }

  private static func parse(_ text: UnsafeBufferPointer<UInt8>, _ uppercaseOnly: Bool) -> UUID? {
    var octets: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let parsed = withUnsafeMutableBytes(of: &octets) { raw -> Bool in
      var at = 0
      for octet in 0..<16 {
        if octet == 4 || octet == 6 || octet == 8 || octet == 10 {
          guard text[at] == UInt8(ascii: "-") else { return false }
          at += 1
        }
        guard let high = digit(text[at], uppercaseOnly),
          let low = digit(text[at + 1], uppercaseOnly)
        else { return false }
        raw[octet] = high << 4 | low
        at += 2
      }
      return true
    }
    return parsed ? UUID(uuid: octets) : nil
  }

  /// The upper-case text of `id`, as `uuidString` spells it.
  static func string(_ id: UUID) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    return withUnsafeBytes(of: id.uuid) { octets in
      String(unsafeUninitializedCapacity: 36) { text in
        var at = 0
        for (index, octet) in octets.enumerated() {
          if index == 4 || index == 6 || index == 8 || index == 10 {
            text[at] = UInt8(ascii: "-")
            at += 1
          }
          text[at] = digits[Int(octet >> 4)]
          text[at + 1] = digits[Int(octet & 0x0F)]
          at += 2
        }
        return at
      }
    }
  }

  private static func digit(_ byte: UInt8, _ uppercaseOnly: Bool) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f") where !uppercaseOnly: byte - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
