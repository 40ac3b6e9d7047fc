import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// When and how long to wait before trying a request again.
///
/// Default: GET only, up to 3 retries, exponential backoff 1 s, 2 s, 4 s (capped by
/// `maxDelay`), on 408, 429, 5xx and transport errors that mean "try again". 4xx, decoding
/// errors, invalid URLs and cancellation are never retried. `Retry-After` on 429/503 is
/// honoured, capped by `maxDelay`.
public struct RetryPolicy: Sendable, Equatable {
  /// Random spread added to backoff so a fleet of clients does not retry in lockstep.
  public enum Jitter: Sendable, Equatable {
    /// Exactly the exponential delay.
    case none
    case full
    /// `delay/2` plus uniform in `0...delay/2`.
    case equal
  }

  /// Retries after the first attempt (0 disables retrying).
  public var maxRetries: Int
  /// Delay before the first retry; doubles each retry.
  public var baseDelay: Duration
  /// Upper bound of any single delay, `Retry-After` included.
  public var maxDelay: Duration
  /// Spread applied to exponential delays (not to `Retry-After`).
  public var jitter: Jitter
  /// Methods that may be retried. POST/PUT/PATCH/DELETE only if listed here.
  public var retryableMethods: Set<HTTPMethod>
  /// Whether `Retry-After` on 429/503 sets the delay.
  public var respectsRetryAfter: Bool

  /// Transport errors that mean "try again".
  static let transientErrors: Set<URLError.Code> = [
    .timedOut, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
    .notConnectedToInternet,
  ]

  /// Creates a policy; every parameter has the default described on the type.
  /// - Parameter maxRetries: Retries after the first attempt.
  /// - Parameter baseDelay: First delay.
  /// - Parameter maxDelay: Cap on any delay.
  /// - Parameter jitter: Random spread added to each delay (``Jitter``).
  /// - Parameter retryableMethods: Methods that may be retried.
  /// - Parameter respectsRetryAfter: Honour `Retry-After`.
  public init(
    maxRetries: Int = 3, baseDelay: Duration = .seconds(1), maxDelay: Duration = .seconds(30),
    jitter: Jitter = .none, retryableMethods: Set<HTTPMethod> = [.get],
    respectsRetryAfter: Bool = true
  ) {
    self.maxRetries = max(0, maxRetries)
    self.baseDelay = baseDelay
    self.maxDelay = maxDelay
    self.jitter = jitter
    self.retryableMethods = retryableMethods
    self.respectsRetryAfter = respectsRetryAfter
  }

  /// GET only, 3 retries, 1 s / 2 s / 4 s, capped at 30 s.
  public static let `default` = RetryPolicy()
  /// One attempt: every failure is final (a refresh after a 401 still happens, as it is
  /// not a retry).
  public static let none = RetryPolicy(maxRetries: 0)

  // MARK: Decisions

  /// Whether a failed attempt should be retried (ignoring how many retries are left): the
  /// method may be retried and the failure is transient.
  package func shouldRetry(_ error: NetworkError, method: HTTPMethod) -> Bool {
    retryableMethods.contains(method) && Self.isTransient(error)
  }

  /// The one rule for "trying again later could help", whatever the method: timeouts, lost or
  /// refused connections, 408, 429, 5xx, a refresh that failed in transit. The error reports
  /// what happened; this decides what it means.
  package static func isTransient(_ error: NetworkError) -> Bool {
    switch error.kind {
    case .transport(let error): transientErrors.contains(error.code)
    case .server(let status, _): status == 408 || status == 429 || (500...599).contains(status)
    case .refreshFailed: true
    default: false
    }
  }

  /// The wait before retry number `retry` (1-based).
  /// - Parameter retry: 1 for the first retry, 2 for the second, …
  /// - Parameter retryAfter: The server's `Retry-After`, if it sent one on 429/503.
  /// - Returns: The delay, never more than `maxDelay`.
  package func delay(forRetry retry: Int, retryAfter: Duration? = nil) -> Duration {
    if respectsRetryAfter, let retryAfter { return min(max(retryAfter, .zero), maxDelay) }
    let exponent = min(max(retry - 1, 0), 32)
    // 2^exponent as a Double: `1 << 32` is 0 where `Int` is 32 bits.
    let raw = baseDelay * Double(sign: .plus, exponent: exponent, significand: 1)
    let capped = min(raw, maxDelay)
    switch jitter {
    case .none: return capped
    case .full: return capped * Double.random(in: 0...1)
    case .equal: return capped / 2 + (capped / 2) * Double.random(in: 0...1)
    }
  }

  /// Parses `Retry-After`: delay-seconds or an HTTP date.
  /// - Parameter value: The header value.
  /// - Parameter now: The current wall-clock time (for dates).
  /// - Returns: The delay, or nil if the value is neither form.
  package static func parseRetryAfter(_ value: String, now: Date = Date()) -> Duration? {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    if let seconds = trimmed.plainInteger { return .seconds(seconds) }  // 1*DIGIT, no sign
    if let date = HTTPDate.parse(trimmed, now: now) {
      return .milliseconds(Int64(max(0, date.timeIntervalSince(now)) * 1000))
    }
    return nil
  }
}
