/// Where a configuration value came from, highest precedence first.
public enum ConfigOrigin: Sendable, Hashable, CustomStringConvertible {
  /// An explicit override, such as the CLI's `--set KEY=VALUE`.
  case override
  /// A process environment variable (`STRATA_<KEY>`).
  case environment(variable: String)
  /// A definition in a configuration file or one of its includes.
  case file(SourceLocation)
  /// A default supplied in code.
  case defaults

  /// A short human-readable form: `--set`, `env STRATA_API`, `Config/Debug.xcconfig:3`, `default`.
  public var description: String {
    switch self {
    case .override: "--set"
    case .environment(let variable): "env \(variable)"
    case .file(let location): "\(location.file):\(location.line)"
    case .defaults: "default"
    }
  }
}

/// One resolved configuration entry: its key, final value (after substitution) and origin.
public struct ConfigValue: Sendable, Hashable, CustomStringConvertible {
  /// The key, e.g. `API`.
  public let key: String
  /// The value after quotes, escapes and substitution were applied.
  public let value: String
  /// The layer, file and line the winning definition came from.
  public let origin: ConfigOrigin
  /// Whether the value is a secret and must be printed as `<redacted>`.
  package let isSecret: Bool

  /// The value as it may be shown to a person: `<redacted>` for secrets.
  public var displayValue: String { isSecret ? Redactor.placeholder : value }

  /// `KEY = value (origin)`, with secrets redacted.
  public var description: String { "\(key) = \(displayValue) (\(origin))" }
}

/// A key defined more than once; the later definition wins.
public struct ConfigDuplicate: Sendable, Hashable, CustomStringConvertible {
  /// The key defined twice.
  public let key: String
  /// Where the overridden definition was.
  public let previous: SourceLocation
  /// Where the winning definition is.
  public let winner: SourceLocation

  /// Creates a duplicate report.
  package init(key: String, previous: SourceLocation, winner: SourceLocation) {
    (self.key, self.previous, self.winner) = (key, previous, winner)
  }

  /// A one-line explanation naming both locations.
  public var description: String {
    "\(key) defined at \(previous) is redefined at \(winner); the later definition wins"
  }
}
