extension Config {
  /// A typed configuration key, so call sites write `Config.Key.api`, never a raw string.
  ///
  /// Keys whose name contains `TOKEN`, `SECRET`, `PASSWORD` or `KEY` are secrets, as is any key
  /// created with `secret: true`; their values print as `<redacted>`.
  public struct Key: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The key as written in files, e.g. `API`.
    public let name: String
    /// Whether this key was explicitly marked secret (beyond the name rule).
    public let isMarkedSecret: Bool

    /// Creates a key.
    /// - Parameters:
    ///   - name: The key as written in files.
    ///   - secret: Treat the value as a secret even if the name does not say so.
    public init(_ name: String, secret: Bool = false) {
      self.name = name
      self.isMarkedSecret = secret
    }

    /// Creates a key from a literal: `let key: Config.Key = "API"`.
    /// - Parameter value: The key name.
    public init(stringLiteral value: String) { self.init(value) }

    /// Whether values of this key must be redacted.
    public var isSecret: Bool { isMarkedSecret || Self.nameLooksSecret(name) }

    /// The key name.
    public var description: String { name }

    /// Two keys are the same key when their names match.
    /// - Parameters:
    ///   - lhs: A key.
    ///   - rhs: Another key.
    /// - Returns: Whether the names are equal.
    public static func == (lhs: Key, rhs: Key) -> Bool { lhs.name == rhs.name }

    /// Hashes the name only.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    static let secretMarkers = ["TOKEN", "SECRET", "PASSWORD", "KEY"]

    static func nameLooksSecret(_ name: String) -> Bool {
      let upper = name.uppercased()
      return secretMarkers.contains { upper.contains($0) }
    }
  }
}

// MARK: - Well-known keys

extension Config.Key {
  /// Base URL of the API (`https://dummyjson.com`, or `sandbox` for the embedded server).
  public static let api: Config.Key = "API"
  /// Global log level: trace, debug, info, notice, warning, error, critical.
  public static let logLevel: Config.Key = "LOG_LEVEL"
  /// Log output format: `text` or `json`.
  public static let logFormat: Config.Key = "LOG_FORMAT"
  /// Print values logged with `privacy: .private`, and personal-data fields (ssn, iban, …) in
  /// logged bodies — local debugging only; tokens and passwords stay hidden.
  public static let logRevealPrivate: Config.Key = "LOG_REVEAL_PRIVATE"
  /// Per-request (idle) timeout.
  public static let requestTimeout: Config.Key = "REQUEST_TIMEOUT"
  /// Overall deadline for one call, retries included.
  public static let resourceTimeout: Config.Key = "RESOURCE_TIMEOUT"
  /// How many times a retryable request is retried.
  public static let retryMaxRetries: Config.Key = "RETRY_MAX_RETRIES"
  /// First backoff delay; doubles each retry.
  public static let retryBaseDelay: Config.Key = "RETRY_BASE_DELAY"
  /// Upper bound of any backoff delay (and of `Retry-After`).
  public static let retryMaxDelay: Config.Key = "RETRY_MAX_DELAY"
  /// Largest response body accepted, e.g. `10MiB` (default); larger ones are cut off.
  public static let maxResponseSize: Config.Key = "MAX_RESPONSE_SIZE"
  /// Application name, used for the token directory and the User-Agent.
  public static let appName: Config.Key = "APP_NAME"

  /// The per-category level key, e.g. `LOG_LEVEL_NETWORKING`.
  /// - Parameter category: A logger category such as `networking`.
  /// - Returns: The key `LOG_LEVEL_<CATEGORY>`.
  public static func logLevel(for category: String) -> Config.Key {
    Config.Key("LOG_LEVEL_" + category.uppercased())
  }
}
