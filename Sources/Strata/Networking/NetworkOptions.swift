import Foundation

/// Settings of a ``NetworkService``: where, how long, how to retry, who it says it is.
public struct NetworkOptions: Sendable {
  /// The base URL endpoints' relative paths are resolved against.
  package var baseURL: URL
  /// Overall deadline of one call, retries included.
  package var timeout: Duration
  /// How long one attempt may wait for data before it times out (`URLRequest.timeoutInterval`;
  /// on Linux rounded up to whole seconds, which is all FoundationNetworking honours); nil
  /// keeps the transport's own setting.
  package var requestTimeout: Duration?
  /// The retry policy for endpoints that do not bring their own.
  package var retryPolicy: RetryPolicy
  package var userAgent: String
  /// Largest response body accepted, in bytes (default 10 MiB). A larger one is cut off as it
  /// streams in and the call fails with `responseTooLarge`; an
  /// endpoint can set its own (`Endpoint/maxResponseSize`).
  package var maxResponseSize: Int
  /// Which answers reject the access token a request carried (default: `401`).
  public var credentialRejection: CredentialRejection = .unauthorizedStatus
  /// When set and offline, requests fail at once with `NetworkError.Kind.offline` — no attempt,
  /// no retry, no wait for DNS (requests to this machine, `localhost` or `127.0.0.1`, still go).
  public var connectivity: Connectivity?
  /// Where the API's error bodies explain themselves (default: RFC 9457 problem details).
  public var serverMessageFormat: ServerMessageFormat = .problemDetails
  /// Steps run around the transport for every attempt, first to last (see ``HTTPMiddleware``).
  public var middleware: [any HTTPMiddleware] = []
  /// Told the ``RequestRecord`` of every attempt once its outcome is decided — before a
  /// backoff wait when it will be retried (``RequestRecord/retry`` says when), so a UI can
  /// show "retrying in 2s (2/3)…", a file can keep JSON lines, metrics can count.
  public var onRequestRecord: (@Sendable (RequestRecord) -> Void)?

  /// - Parameter baseURL: Base URL of the API.
  /// - Parameter timeout: Overall deadline per call (default 60 s).
  /// - Parameter retryPolicy: Default retry policy.
  /// - Parameter userAgent: The `User-Agent` header.
  /// - Parameter maxResponseSize: Largest response body accepted, in bytes (default 10 MiB).
  package init(
    baseURL: URL, timeout: Duration = .seconds(60), retryPolicy: RetryPolicy = .default,
    userAgent: String = NetworkOptions.defaultUserAgent(app: "Strata"),
    maxResponseSize: Int = NetworkOptions.defaultMaxResponseSize
  ) {
    self.baseURL = baseURL
    self.maxResponseSize = maxResponseSize
    self.timeout = timeout
    self.retryPolicy = retryPolicy
    self.userAgent = userAgent
  }

  package static let defaultMaxResponseSize = 10 << 20

  /// The longest timeout or delay configuration accepts: one day.
  package static let longestTimeout: Duration = .seconds(24 * 3600)

  /// Reads `RESOURCE_TIMEOUT` (the overall deadline), `REQUEST_TIMEOUT` (one attempt's wait
  /// for data), `RETRY_MAX_RETRIES`, `RETRY_BASE_DELAY`, `RETRY_MAX_DELAY`,
  /// `MAX_RESPONSE_SIZE` and `APP_NAME` (all optional, defaults as in ``RetryPolicy``).
  /// - Parameter config: The configuration.
  /// - Parameter baseURL: The API's base URL (the caller resolves `API`, which may name a sandbox).
  /// - Throws: ``ConfigError`` for a malformed value.
  public init(config: Config, baseURL: URL) throws {
    let defaults = RetryPolicy.default
    self.init(
      baseURL: baseURL,
      timeout: try config.duration(
        .resourceTimeout, default: .seconds(60), in: .milliseconds(1)...Self.longestTimeout),
      retryPolicy: RetryPolicy(
        maxRetries: try config.int(.retryMaxRetries, default: defaults.maxRetries, in: 0...100),
        baseDelay: try config.duration(
          .retryBaseDelay, default: defaults.baseDelay, in: .zero...Self.longestTimeout),
        maxDelay: try config.duration(
          .retryMaxDelay, default: defaults.maxDelay, in: .zero...Self.longestTimeout)),
      userAgent: Self.defaultUserAgent(app: try config.string(.appName, default: "Strata")),
      maxResponseSize: try config.byteCount(
        .maxResponseSize, default: Self.defaultMaxResponseSize, in: 1...(1 << 40)))
    if config.value(.requestTimeout) != nil {
      requestTimeout = try config.duration(
        .requestTimeout, in: .milliseconds(1)...Self.longestTimeout)
    }
  }

  package static func defaultUserAgent(app: String) -> String {
    #if os(Linux)
      let system = "Linux"
    #elseif os(macOS)
      let system = "macOS"
    #elseif os(iOS)
      let system = "iOS"
    #else
      let system = "Apple"
    #endif
    return "\(app) Strata/\(strataVersion) (\(system))"
  }
}

/// The Strata library version (sent in the default User-Agent).
package let strataVersion = "0.1.0"
