import Strata

/// Which world the app runs in — `debug`, `testing` or `production` — chosen by the
/// `ENVIRONMENT` key. The environment supplies the defaults of every key the configuration
/// leaves out: where the API is, how much is logged, how hard requests are retried.
///
/// (Not `Environment`: SwiftUI declares one.)
public enum AppEnvironment: String, Sendable, CaseIterable, CustomStringConvertible {
  /// Local development: the embedded sandbox, verbose logs, quick retries.
  case debug
  /// Automated tests: the sandbox, quiet logs, one fast retry, sessions in memory.
  case testing
  /// The real service: https://dummyjson.com, notices and above, patient retries.
  case production

  /// `debug` in a debug build, `production` in a release build.
  public static var buildDefault: AppEnvironment {
    #if DEBUG
      .debug
    #else
      .production
    #endif
  }

  /// The name, as `ENVIRONMENT` takes it.
  public var description: String { rawValue }

  /// What this environment sets when the configuration does not.
  public var defaults: [Config.Key: String] {
    var values: [Config.Key: String]
    switch self {
    case .debug:
      values = [
        .api: "sandbox", .logLevel: "debug", .logLevel(for: "networking"): "info",
        .idleTimeout: "5s", .deadline: "15s", .retryMaxRetries: "3",
        .retryBaseDelay: "200ms", .retryMaxDelay: "2s",
      ]
    case .testing:
      values = [
        .api: "sandbox", .logLevel: "warning", .tokenStore: "memory", .idleTimeout: "2s",
        .deadline: "5s", .retryMaxRetries: "1", .retryBaseDelay: "10ms",
        .retryMaxDelay: "50ms",
      ]
    case .production:
      values = [
        .api: "https://dummyjson.com", .logLevel: "notice", .idleTimeout: "30s",
        .deadline: "60s", .retryMaxRetries: "3", .retryBaseDelay: "1s",
        .retryMaxDelay: "30s",
      ]
    }
    values[.environment] = rawValue
    for feature in Feature.allCases { values[feature.key] = "YES" }
    values[.logFormat] = "text"
    values[.logRevealPrivate] = "NO"
    // Every other key a command reads, at the value the code would take without it, so
    // `config show` lists each one with where it came from. (STORE_DIRECTORY, a path under
    // the app's data directory, is left to be computed.)
    let everywhere: [Config.Key: String] = [
      .tokenStore: Self.platformTokenStore, .tokenLifetime: "30m", .httpCache: "disk",
      .httpCacheSize: "50MiB", .httpCacheMaxStale: "1d", .maxResponseSize: "10MiB",
      .syncInterval: "30s", .syncMaxAttempts: "5", .usersCacheTTL: "60s",
      .usersRequireSignIn: "NO",
    ]
    values.merge(everywhere) { mine, _ in mine }
    #if os(Linux)
      values[.routeTable] = "/proc/net/route"
    #endif
    return values
  }

  /// The token store when `TOKEN_STORE` names none: the Keychain where an app expects it (iOS
  /// and the other device platforms), the 0600 file on macOS (a command-line tool's home) and
  /// Linux.
  static let platformTokenStore: String = {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      "keychain"
    #else
      "file"
    #endif
  }()

  /// The environment the configuration names (else `fallback`), and the configuration with
  /// that environment's defaults as its lowest layer — so a file's `$(API)` sees the
  /// environment's API, and `config show` says which values came from it. `load` reads the
  /// configuration with the defaults it is given; it runs a second time only when the file,
  /// environment or overrides name another environment than `fallback`.
  /// ```swift
  /// let (environment, config) = try AppEnvironment.resolve { defaults in
  ///   try Config(file: "Config/App.xcconfig", defaults: defaults)
  /// }
  /// ```
  /// - Throws: ``ConfigError`` naming the key and where it was set, for an unknown name; what
  ///   `load` throws.
  public static func resolve(
    fallback: AppEnvironment = buildDefault, _ load: ([Config.Key: String]) throws -> Config
  ) throws -> (AppEnvironment, Config) {
    let first = try load(fallback.defaults)
    let environment = try named(in: first, fallback: fallback)
    return (environment, environment == fallback ? first : try load(environment.defaults))
  }

  /// The environment `config` names (else `fallback`).
  /// - Throws: ``ConfigError`` naming the key and where it was set, for an unknown name.
  public static func named(in config: Config, fallback: AppEnvironment = buildDefault) throws
    -> AppEnvironment
  {
    guard let entry = config.value(.environment) else { return fallback }
    guard let named = AppEnvironment(rawValue: entry.value.lowercased()) else {
      var location: SourceLocation?
      if case .file(let fileLocation) = entry.origin { location = fileLocation }
      let names = allCases.map(\.rawValue).joined(separator: ", ")
      throw ConfigError(
        .invalidValue(key: entry.key, expected: names), at: location,
        Localized.current(
          "config.expectedOneOf",
          [
            "key": entry.key, "names": names,
            "got": "'\(UntrustedText.sanitize(entry.value, limit: 40))'",
          ]))
    }
    return named
  }
}
