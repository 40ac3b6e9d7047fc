extension String {
  /// `bytes` as a string when they are well-formed UTF-8 (no overlong forms, surrogates or
  /// truncated sequences), nil otherwise. The standard library's `String(validating:as:)` does
  /// the same but needs macOS 15 and iOS 18, and the package supports macOS 14 and iOS 17.
  package init?(wellFormedUTF8 bytes: some Collection<UInt8>) {
    if !bytes.allSatisfy({ $0 < 0x80 }) {
      var iterator = bytes.makeIterator()
      var decoder = UTF8()
      decoding: while true {
        switch decoder.decode(&iterator) {
        case .scalarValue: continue
        case .emptyInput: break decoding
        case .error: return nil
        }
      }
    }
    self = String(decoding: bytes, as: UTF8.self)
  }
}
