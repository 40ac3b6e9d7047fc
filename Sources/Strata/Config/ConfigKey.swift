extension Config {
  /// A typed configuration key, so call sites write `Config.Key.logLevel`, never a raw string.
  ///
  /// Each layer declares its own keys (`Config.Key.logLevel` with logging,
  /// `Config.Key.deadline` with networking); an app adds its own the same way.
  ///
  /// Keys whose name contains `TOKEN`, `SECRET`, `PASSWORD` or `KEY` are secrets, as are the
  /// keys a configuration is loaded with as `secrets:`; their values print as `<redacted>`.
  public struct Key: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The key as written in files, e.g. `API`.
    public let name: String

    /// - Parameter name: The key as written in files.
    public init(_ name: String) { self.name = name }

    /// Creates a key from a literal: `let key: Config.Key = "API"`.
    public init(stringLiteral value: String) { self.init(value) }

    /// Whether the name says its values must be redacted (a configuration may say so of
    /// other keys too: ``Config/value(_:)``'s `displayValue`).
    package var isSecret: Bool { Self.nameLooksSecret(name) }

    public var description: String { name }

    /// Whether the name holds TOKEN, SECRET, PASSWORD or KEY, in any letter case. Byte by
    /// byte: names are identifiers (ASCII), and Foundation's `contains` cost a fifth of loading
    /// a large file. ASCII letter cases differ only in bit 5, so `byte | 0x20` is a letter's
    /// lowercase and matches a lowercase letter only when the byte is that letter.
    static func nameLooksSecret(_ name: String) -> Bool {
      var name = name
      return name.withUTF8 { bytes in
        var start = 0
        while start + 3 <= bytes.count {
          let found =
            switch bytes[start] | 0x20 {
            case UInt8(ascii: "t"): holds("token", in: bytes, at: start)
            case UInt8(ascii: "s"): holds("secret", in: bytes, at: start)
            case UInt8(ascii: "p"): holds("password", in: bytes, at: start)
            case UInt8(ascii: "k"): holds("key", in: bytes, at: start)
            default: false
            }
          if found { return true }
          start += 1
        }
        return false
      }
    }

    /// Whether `value`, under `key` — a name holding `TOKEN` or `KEY`, never `PASSWORD` or
    /// `SECRET` — is a setting rather than a secret: a number, a duration, a flag
    /// (``TextFormat``'s grammar), or one of ``settingWords``. Masked by length instead, the
    /// 8-byte `keychain` of `TOKEN_STORE` was `<redacted>` in every Keychain message.
    static func isSetting(_ value: String, under key: String) -> Bool {
      let name = key.lowercased()
      guard !name.contains("password"), !name.contains("secret") else { return false }
      let text = value.trimmingCharacters(in: .whitespaces).lowercased()
      return settingWords.contains(text) || TextGrammar.number(text) != nil
        || TextGrammar.duration(text) != nil || TextGrammar.flag(text) != nil
    }

    /// The words settings take where a name looks secret: where a session is kept and how
    /// answers are cached.
    static let settingWords: Set<String> = ["keychain", "file", "memory", "disk", "none"]

    /// Whether `bytes` hold the lowercase `marker` at `start`, in any letter case.
    private static func holds(
      _ marker: StaticString, in bytes: UnsafeBufferPointer<UInt8>, at start: Int
    ) -> Bool {
      let count = marker.utf8CodeUnitCount
      guard count <= bytes.count - start else { return false }
      for offset in 1..<count where bytes[start + offset] | 0x20 != marker.utf8Start[offset] {
        return false
      }
      return true
    }
  }
}
