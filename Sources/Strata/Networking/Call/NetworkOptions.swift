import Foundation

/// Settings of a ``NetworkService``: where, how long, how to retry, who it says it is.
///
/// Two words for time: the **deadline** bounds a whole call, retries and backoff waits
/// included; the **idle timeout** bounds how long one attempt may wait for data.
/// ```swift
/// var options = NetworkOptions(baseURL: api, deadline: .seconds(20), retryPolicy: .none)
/// options.middleware = [DefaultHeaders(["X-Client": "checkout"])]
/// ```
public struct NetworkOptions: Sendable {
  /// The base URL endpoints' relative paths are resolved against.
  public var baseURL: URL
  /// A call's overall deadline, retries and backoff waits included (an endpoint may set its
  /// own, ``Request/deadline``). When it passes, the call fails with the error
  /// ``NetworkError/Kind/deadlineExceeded`` and nothing more is sent.
  public var deadline: Duration
  /// How long one attempt may wait for data before it fails with `URLError(.timedOut)` (and
  /// may be retried); nil keeps the transport's own. On Linux it is rounded up to whole
  /// seconds, which is all FoundationNetworking honours.
  public var idleTimeout: Duration?
  /// The retry policy for endpoints that do not bring their own.
  public var retryPolicy: RetryPolicy
  /// The `User-Agent` header (default `Strata/<version> (<system>)`; with a config,
  /// `<APP_NAME> Strata/<version> (<system>)`).
  public var userAgent: String
  /// Largest response body accepted, in bytes (default 10 MiB). A larger one is cut off as it
  /// streams in and the call fails with `responseTooLarge`; ``Request/maxResponseSize`` sets
  /// an endpoint's own limit.
  public var maxResponseSize: Int
  /// Show personal data (`ssn`, `iban`, `email`, …) in logged request bodies — for local
  /// debugging only. Tokens, passwords and `Authorization` values stay hidden regardless.
  public var revealsPersonalData = false
  /// Which answers reject the access token a request carried (default: `401`).
  public var credentialRejection: CredentialRejection = .unauthorizedStatus
  /// When set and offline, requests fail at once with `NetworkError.Kind.offline` — no attempt,
  /// no retry, no wait for DNS (requests to this machine, `localhost` or `127.0.0.1`, still go).
  public var connectivity: Connectivity?
  /// Where the API's error bodies explain themselves (default: RFC 9457 problem details).
  public var serverMessageFormat: ServerMessageFormat = .problemDetails
  /// Steps run around the transport for every attempt, first to last (see ``HTTPMiddleware``).
  public var middleware: [any HTTPMiddleware] = []
  /// Told the ``RequestRecord`` of every attempt and every answer from the cache, with what
  /// was exchanged (see ``CallObserver``): a UI's "retrying in 2 s (2/3)…", a file of JSON
  /// lines, metrics, a HAR export. Several are ``CallObserver/all(_:)``.
  public var observer: CallObserver?
  /// The HTTP cache for GET answers (see ``HTTPCache``); nil sends every request. On by
  /// default, in memory; one cache per options value (copies share it).
  public var cache: HTTPCache? = HTTPCache()
  /// Where a multipart body is written while it is sent (it holds every field and the files'
  /// bytes): created 0700 if missing, each body 0600 and removed when its call ends; what a
  /// killed process left is removed by the next process's first service. Default:
  /// `staging` in the app's cache directory (``AppDirectories/cache``, `~/.cache/<APP_NAME>`),
  /// `~/.cache/Strata/staging` for options built in code. Never a shared temporary directory.
  public var stagingDirectory = AppDirectories(app: "Strata").cache + "/staging"

  /// Options built in code; every setting not given has the default described on it.
  public init(
    baseURL: URL, deadline: Duration = .seconds(60), idleTimeout: Duration? = nil,
    retryPolicy: RetryPolicy = .default, userAgent: String? = nil,
    maxResponseSize: Int = 10 << 20
  ) {
    self.baseURL = baseURL
    self.deadline = deadline
    self.idleTimeout = idleTimeout
    self.retryPolicy = retryPolicy
    self.userAgent = userAgent ?? Self.defaultUserAgent(app: nil)
    self.maxResponseSize = maxResponseSize
  }

  /// The largest response body accepted when neither the configuration
  /// (`MAX_RESPONSE_SIZE`) nor the request sets one: 10 MiB.
  public static let defaultMaxResponseSize = 10 << 20

  /// The longest timeout or delay configuration accepts: one day.
  package static let longestTimeout: Duration = .seconds(24 * 3600)

  /// Reads `DEADLINE` (a call's deadline), `IDLE_TIMEOUT` (one attempt's wait for data),
  /// `RETRY_MAX_RETRIES`, `RETRY_BASE_DELAY`, `RETRY_MAX_DELAY`, `MAX_RESPONSE_SIZE`,
  /// `APP_NAME`, `LOG_REVEAL_PRIVATE` and `HTTP_CACHE`, `HTTP_CACHE_SIZE`,
  /// `HTTP_CACHE_MAX_STALE` (all optional, defaults as in ``RetryPolicy``, ``HTTPCache`` and
  /// above), then lets code change what it needs.
  /// - Parameter config: The configuration.
  /// - Parameter baseURL: The API's base URL (the caller resolves `API`, which may name a sandbox).
  /// - Parameter now: The wall clock the HTTP cache ages its answers by (tests inject theirs).
  /// - Throws: ``ConfigError`` for a malformed value, or for `RESOURCE_TIMEOUT` and
  ///   `REQUEST_TIMEOUT`, the names `DEADLINE` and `IDLE_TIMEOUT` had before (a renamed key
  ///   silently ignored would change how long calls wait).
  public init(
    config: Config, baseURL: URL, now: @escaping @Sendable () -> Date = { Date() }
  ) throws {
    for (old, new) in [
      ("RESOURCE_TIMEOUT", Config.Key.deadline), ("REQUEST_TIMEOUT", .idleTimeout),
    ]
    where config.value(Config.Key(old)) != nil {
      var location: SourceLocation?
      if case .file(let found) = config.value(Config.Key(old))?.origin { location = found }
      throw ConfigError(
        .renamedKey(key: old, replacement: new.name), at: location,
        "\(old) is now called \(new.name): rename it")
    }
    let defaults = RetryPolicy.default
    self.init(
      baseURL: baseURL,
      deadline: try config.duration(
        .deadline, default: .seconds(60), in: .milliseconds(1)...Self.longestTimeout),
      retryPolicy: RetryPolicy(
        maxRetries: try config.int(.retryMaxRetries, default: defaults.maxRetries, in: 0...100),
        baseDelay: try config.duration(
          .retryBaseDelay, default: defaults.baseDelay, in: .zero...Self.longestTimeout),
        maxDelay: try config.duration(
          .retryMaxDelay, default: defaults.maxDelay, in: .zero...Self.longestTimeout)),
      userAgent: Self.defaultUserAgent(app: try config.string(.appName, default: "Strata")),
      maxResponseSize: try config.byteCount(
        .maxResponseSize, default: Self.defaultMaxResponseSize, in: 1...ByteLimits.oneTiB))
    if config.value(.idleTimeout) != nil {
      idleTimeout = try config.duration(.idleTimeout, in: .milliseconds(1)...Self.longestTimeout)
    }
    revealsPersonalData = try config.bool(.logRevealPrivate, default: false)
    cache = try Self.cache(config: config, baseURL: baseURL, now: now)
    if let app = config.value(.appName)?.value {
      stagingDirectory = AppDirectories(app: app).cache + "/staging"
    }
  }

  /// `HTTP_CACHE`, `HTTP_CACHE_SIZE`, `HTTP_CACHE_MAX_STALE`: on disk under the app's cache
  /// directory (memory when there is no `APP_NAME` to name it), in memory, or none.
  private static func cache(
    config: Config, baseURL: URL, now: @escaping @Sendable () -> Date
  ) throws -> HTTPCache? {
    let size = try config.byteCount(.httpCacheSize, default: 50 << 20, in: 0...ByteLimits.oneTiB)
    let maxStale = try config.duration(
      .httpCacheMaxStale, default: .seconds(86_400), in: .zero...Duration.seconds(365 * 86_400))
    let mode = try config.string(.httpCache, default: "disk")
    switch mode.lowercased() {
    case "off": return nil
    case "memory": return HTTPCache(maxBytes: size, maxStale: maxStale, now: now)
    case "disk":
      guard let app = config.value(.appName)?.value, let origin = Origin(baseURL) else {
        return HTTPCache(maxBytes: size, maxStale: maxStale, now: now)
      }
      return HTTPCache(app: app, origin: origin, maxBytes: size, maxStale: maxStale, now: now)
    default:
      var location: SourceLocation?
      if case .file(let found) = config.value(.httpCache)?.origin { location = found }
      throw ConfigError(
        .invalidValue(key: Config.Key.httpCache.name, expected: "disk, memory or off"),
        at: location,
        "\(Config.Key.httpCache.name): expected disk, memory or off, got \(Config.quoted(mode))")
    }
  }

  /// `<app> Strata/<version> (<system>)`, or without an app name `Strata/<version> (<system>)`.
  package static func defaultUserAgent(app: String?) -> String {
    #if os(Linux)
      let system = "Linux"
    #elseif os(macOS)
      let system = "macOS"
    #elseif os(iOS)
      let system = "iOS"
    #else
      let system = "Apple"
    #endif
    return (app.map { "\($0) " } ?? "") + "Strata/\(strataVersion) (\(system))"
  }
}

/// The Strata library version (sent in the default User-Agent).
public let strataVersion = "0.1.0"
