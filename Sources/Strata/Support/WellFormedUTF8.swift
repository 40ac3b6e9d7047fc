extension String {
  /// `bytes` as a string when they are well-formed UTF-8 (no overlong forms, surrogates or
  /// truncated sequences), nil otherwise. The standard library's `String(validating:as:)` does
  /// the same but needs macOS 15 and iOS 18, and the package supports macOS 14 and iOS 17.
  package init?(wellFormedUTF8 bytes: some Collection<UInt8>) {
    guard UTF8.scalarsBeforeError(in: bytes) == nil else { return nil }
    self = String(decoding: bytes, as: UTF8.self)
  }
}

extension UTF8 {
  /// How many scalars come before the first ill-formed sequence of `bytes` (a config error's
  /// column is one more), nil when all of it is well-formed. All-ASCII bytes are checked at
  /// once; the rest by the standard library's strict decoder.
  package static func scalarsBeforeError(in bytes: some Collection<UInt8>) -> Int? {
    if bytes.allSatisfy({ $0 < 0x80 }) { return nil }
    var iterator = bytes.makeIterator()
    var codec = UTF8()
    var scalars = 0
    while true {
      switch codec.decode(&iterator) {
      case .scalarValue: scalars += 1
      case .emptyInput: return nil
      case .error: return scalars
      }
    }
  }
}
