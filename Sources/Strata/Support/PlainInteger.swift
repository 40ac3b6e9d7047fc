extension StringProtocol {
  /// The text as a whole number the way people type one in configuration and on command
  /// lines: ASCII digits only (no sign, spaces, underscores or other scripts' digits), within
  /// `Int`; nil for anything else.
  package var plainInteger: Int? {
    guard !isEmpty, utf8.count <= 19, utf8.allSatisfy({ (48...57).contains($0) }) else {
      return nil
    }
    return Int(String(self))
  }
}
