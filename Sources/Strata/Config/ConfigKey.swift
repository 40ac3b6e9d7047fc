extension Config {
  /// A typed configuration key, so call sites write `Config.Key.logLevel`, never a raw string.
  ///
  /// Each layer declares its own keys (`Config.Key.logLevel` with logging,
  /// `Config.Key.deadline` with networking); an app adds its own the same way.
  ///
  /// Keys whose name contains `TOKEN`, `SECRET`, `PASSWORD` or `KEY` are secrets, as is any key
  /// created with `secret: true`; their values print as `<redacted>`.
  public struct Key: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The key as written in files, e.g. `API`.
    public let name: String
    /// Whether this key was explicitly marked secret (beyond the name rule).
    package let isMarkedSecret: Bool

    /// - Parameter name: The key as written in files.
    /// - Parameter secret: Treat the value as a secret even if the name does not say so.
    public init(_ name: String, secret: Bool = false) {
      self.name = name
      self.isMarkedSecret = secret
    }

    /// Creates a key from a literal: `let key: Config.Key = "API"`.
    public init(stringLiteral value: String) { self.init(value) }

    /// Whether values of this key must be redacted.
    package var isSecret: Bool { isMarkedSecret || Self.nameLooksSecret(name) }

    public var description: String { name }

    /// Two keys are the same key when their names match.
    /// - Returns: Whether the names are equal.
    public static func == (lhs: Key, rhs: Key) -> Bool { lhs.name == rhs.name }

    /// Hashes the name only.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    static let secretMarkers = ["TOKEN", "SECRET", "PASSWORD", "KEY"].map { Array($0.utf8) }

    /// Whether the name holds a marker, in any letter case. Byte by byte: names are
    /// identifiers (ASCII), and Foundation's `contains` cost a fifth of loading a large file.
    static func nameLooksSecret(_ name: String) -> Bool {
      var name = name
      return name.withUTF8 { bytes in
        secretMarkers.contains { marker in
          bytes.count >= marker.count
            && (0...(bytes.count - marker.count)).contains { start in
              marker.indices.allSatisfy { offset in
                let byte = bytes[start + offset]
                return (97...122).contains(byte)
                  ? byte - 32 == marker[offset] : byte == marker[offset]
              }
            }
        }
      }
    }
  }
}
