import Foundation

/// What one attempt of one request did, as data: the structured record ``NetworkService``
/// emits for every attempt — in the `networking` log's fields (JSON lines carry them) and to
/// ``NetworkOptions/observer``. The URL is redacted; what was exchanged
/// (``exchange``) is the observer's alone, never in a record's JSON.
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
  /// From sending to the response head's arrival (time to first byte: when the transport's
  /// `send` returned), in milliseconds; nil when no answer came.
  public var firstByteMilliseconds: Double?
  /// The request body's bytes (headers not counted).
  public var bytesSent: Int
  /// The response body's bytes as decoded by the transport (after gzip), 0 for a cache hit.
  public var bytesReceived: Int
  /// 1 for the first attempt, 2 for the first retry, …
  public var attempt: Int
  /// Why this attempt is a retry (`503`, `URLError -1005`, `token refreshed after 401`): the
  /// previous attempt's ``Retry/reason``; nil for a first attempt.
  public var retriedBecause: String?
  /// The failure, when the attempt got no HTTP response.
  public var error: String?
  /// The retry that will follow, when this attempt failed and one will be made.
  public var retry: Retry?
  /// Where the answer came from, when the request uses the HTTP cache (nil when it does
  /// not): ``ResponseSource/cache(age:)`` (no request was made: `attempt` is 0),
  /// ``ResponseSource/revalidated`` (a 304 confirmed the stored answer),
  /// ``ResponseSource/stale(age:)`` (a stored answer stood in for this failed attempt, or —
  /// `attempt` 0 — was used within its `stale-while-revalidate` window while a revalidation
  /// runs behind it) or ``ResponseSource/network``. In JSON: `"cache"` (its
  /// ``ResponseSource/label``) and `"cacheAge"` (whole seconds).
  public var source: ResponseSource?
  /// For a stream (``NetworkService/stream(_:as:state:)``): the pieces, lines, values or events this
  /// connection handed its reader; nil for any other call.
  public var events: Int?
  /// What was exchanged (``CallObserver``): for an attempt, as the transport saw it; for an
  /// answer from the cache, the kept answer. Never in a record's JSON (it is not masked).
  public var exchange: HTTPExchange?

  init(
    request: String, method: String, url: String, status: Int?, durationMilliseconds: Double,
    bytesSent: Int, bytesReceived: Int, attempt: Int, retriedBecause: String? = nil,
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
    self.retriedBecause = retriedBecause
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
    if let retriedBecause { fields["http.retry_reason"] = retriedBecause }
    if let error { fields["http.error"] = error }
    if let retry { fields["http.retry_in_ms"] = String(format: "%.0f", retry.delayMilliseconds) }
    if let source { fields["http.cache"] = source.label }
    if let age = source?.age { fields["http.cache_age_s"] = String(age) }
    if let events { fields["http.stream_events"] = String(events) }
    if let firstByteMilliseconds {
      fields["http.first_byte_ms"] = String(format: "%.3f", firstByteMilliseconds)
    }
    return fields
  }

  private enum CodingKeys: String, CodingKey {
    case request, method, url, status, durationMilliseconds, bytesSent, bytesReceived, attempt
    case retriedBecause = "retryReason"
    case error, retry, cache, cacheAge, events, firstByteMilliseconds
  }

  /// Reads a record as ``encode(to:)`` writes it (a `--http-log` line, say).
  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    request = try values.decode(String.self, forKey: .request)
    method = try values.decode(String.self, forKey: .method)
    url = try values.decode(String.self, forKey: .url)
    status = try values.decodeIfPresent(Int.self, forKey: .status)
    durationMilliseconds = try values.decode(Double.self, forKey: .durationMilliseconds)
    bytesSent = try values.decode(Int.self, forKey: .bytesSent)
    bytesReceived = try values.decode(Int.self, forKey: .bytesReceived)
    attempt = try values.decode(Int.self, forKey: .attempt)
    retriedBecause = try values.decodeIfPresent(String.self, forKey: .retriedBecause)
    error = try values.decodeIfPresent(String.self, forKey: .error)
    retry = try values.decodeIfPresent(Retry.self, forKey: .retry)
    source = try values.decodeIfPresent(String.self, forKey: .cache).map { label in
      let age = try values.decodeIfPresent(Int.self, forKey: .cacheAge) ?? 0
      guard let source = ResponseSource(label: label, age: age) else {
        throw DecodingError.dataCorruptedError(
          forKey: .cache, in: values, debugDescription: "not a cache outcome: \(label)")
      }
      return source
    }
    events = try values.decodeIfPresent(Int.self, forKey: .events)
    firstByteMilliseconds = try values.decodeIfPresent(Double.self, forKey: .firstByteMilliseconds)
  }

  /// The record as a JSON object, its source as `"cache"` and `"cacheAge"`.
  public func encode(to encoder: any Encoder) throws {
    var values = encoder.container(keyedBy: CodingKeys.self)
    try values.encode(request, forKey: .request)
    try values.encode(method, forKey: .method)
    try values.encode(url, forKey: .url)
    try values.encodeIfPresent(status, forKey: .status)
    try values.encode(durationMilliseconds, forKey: .durationMilliseconds)
    try values.encode(bytesSent, forKey: .bytesSent)
    try values.encode(bytesReceived, forKey: .bytesReceived)
    try values.encode(attempt, forKey: .attempt)
    try values.encodeIfPresent(retriedBecause, forKey: .retriedBecause)
    try values.encodeIfPresent(error, forKey: .error)
    try values.encodeIfPresent(retry, forKey: .retry)
    try values.encodeIfPresent(source?.label, forKey: .cache)
    try values.encodeIfPresent(source?.age, forKey: .cacheAge)
    try values.encodeIfPresent(events, forKey: .events)
    try values.encodeIfPresent(firstByteMilliseconds, forKey: .firstByteMilliseconds)
  }
}
