import Foundation

/// What one attempt of one request did, as data: the structured record ``NetworkService``
/// emits for every attempt — in the `networking` log's fields (JSON lines carry them) and to
/// ``NetworkOptions/onRequestRecord``. The URL is redacted; no header or body is kept.
public struct RequestRecord: Sendable, Equatable, Codable {
  /// The retry that follows a failed attempt.
  public struct Retry: Sendable, Equatable, Codable {
    /// 1 for the first retry.
    public var number: Int
    /// The policy's limit: "retry 2 of 3".
    public var maxRetries: Int
    /// The backoff wait before it, in milliseconds.
    public var delayMilliseconds: Double
    /// Why (`503`, `URLError -1005`).
    public var reason: String
  }

  /// `GET /users/1`: method and path, no query.
  public var request: String
  package var method: String
  /// The URL, with secret query parameters and any password redacted.
  public var url: String
  /// The HTTP status, or nil when no response arrived.
  public var status: Int?
  /// From sending to the last byte (or the failure), in milliseconds.
  public var durationMilliseconds: Double
  /// The request body's bytes (headers not counted).
  public var bytesSent: Int
  /// The response body's bytes as decoded by the transport (after gzip), 0 for a cache hit.
  public var bytesReceived: Int
  /// 1 for the first attempt, 2 for the first retry, …
  public var attempt: Int
  /// Why this attempt was made again (`503`, `URLError -1005`, `token renewed`); nil
  /// for a first attempt.
  public var retryReason: String?
  /// The failure, when the attempt got no HTTP response.
  public var error: String?
  /// The retry that will follow, when this attempt failed and one will be made.
  public var retry: Retry?
  /// What the HTTP cache did: `hit` (no request was made: `attempt` is 0), `revalidated`
  /// (a 304 confirmed the stored answer), `stale` (a stored answer stood in for this failed
  /// attempt, or — `attempt` 0 — was used within its `stale-while-revalidate` window while a
  /// revalidation runs behind it) or `miss`; nil when the request does not use the cache.
  public var cache: String?
  /// For `hit` and `stale`: how old the stored answer is, in whole seconds.
  public var cacheAge: Int?

  init(
    request: String, method: String, url: String, status: Int?, durationMilliseconds: Double,
    bytesSent: Int, bytesReceived: Int, attempt: Int, retryReason: String? = nil,
    error: String? = nil
  ) {
    self.request = request
    self.method = method
    self.url = url
    self.status = status
    self.durationMilliseconds = durationMilliseconds
    self.bytesSent = bytesSent
    self.bytesReceived = bytesReceived
    self.attempt = attempt
    self.retryReason = retryReason
    self.error = error
  }

  /// The record as log fields (`http.method`, `http.status`, …).
  package var fields: [String: String] {
    var fields = [
      "http.method": method, "http.url": url,
      "http.duration_ms": String(format: "%.3f", durationMilliseconds),
      "http.bytes_sent": String(bytesSent), "http.bytes_received": String(bytesReceived),
      "http.attempt": String(attempt),
    ]
    if let status { fields["http.status"] = String(status) }
    if let retryReason { fields["http.retry_reason"] = retryReason }
    if let error { fields["http.error"] = error }
    if let retry { fields["http.retry_in_ms"] = String(format: "%.0f", retry.delayMilliseconds) }
    if let cache { fields["http.cache"] = cache }
    if let cacheAge { fields["http.cache_age_s"] = String(cacheAge) }
    return fields
  }
}
