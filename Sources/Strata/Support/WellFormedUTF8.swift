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
    if bytes.withContiguousStorageIfAvailable(isASCII) ?? bytes.allSatisfy({ $0 < 0x80 }) {
      return nil
    }
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

  /// Eight bytes at a time: a word with no high bit set is eight ASCII bytes.
  private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = UnsafeRawPointer(bytes.baseAddress) else { return true }
    var offset = 0
    while offset + 8 <= bytes.count {
      guard base.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      else { return false }
      offset += 8
    }
    while offset < bytes.count {
      guard bytes[offset] < 0x80 else { return false }
      offset += 1
    }
    return true
  }
}
