import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One stored answer to a GET, with what RFC 9111 needs to judge it later: when it was asked
/// for and received, its headers (names in lower case; `Set-Cookie` never kept), and the
/// request's values of the headers its `Vary` names — a credential's (`Authorization`,
/// `Proxy-Authorization`, `Cookie`) only as a keyed digest (``HTTPCache/variedValue(_:of:)``), so
/// no token is ever written into a cache file.
struct CachedResponse: Sendable {
  let status: Int
  private(set) var headers: [String: String] {
    didSet { parsed = Parsed(headers) }
  }
  private var parsed = Parsed([:])
  let body: Data
  private(set) var requestTime: Date
  private(set) var responseTime: Date
  /// The request's value of each header `Vary` names, as ``HTTPCache/variedValue(_:of:)``
  /// gives it (nil: the request did not send it).
  let varied: [String: String?]
  /// What `body` was last decoded to; kept in memory only.
  let decoded = DecodedAnswer()

  /// - Parameter variedValue: The request's value of a header its `Vary` names, as it is kept.
  /// - Parameter usableWithoutLifetime: The request gives answers a lifetime of its own
  ///   (``CachePolicy/freshFor(_:)``), so one with neither lifetime nor validator is usable.
  init?(
    _ body: Data, _ response: HTTPURLResponse, variedValue: (String) -> String?,
    requestTime: Date, responseTime: Date, usableWithoutLifetime: Bool = false
  ) {
    var headers: [String: String] = [:]
    for (name, value) in response.allHeaderFields {
      let key = String(describing: name).lowercased()
      if Self.keeps(key, String(describing: value)) { headers[key] = String(describing: value) }
    }
    let parsed = Parsed(headers)
    let control = parsed.control
    let vary = (headers["vary"] ?? "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }
    guard [200, 203].contains(response.statusCode), !control.noStore, !vary.contains("*") else {
      return nil
    }
    var varied: [String: String?] = [:]
    for name in vary where !name.isEmpty { varied[name] = variedValue(name) }
    // Kept without the members named as credentials (DummyJSON's `password`).
    guard let kept = CredentialMembers.removed(from: body) else { return nil }
    (status, self.headers, self.body, self.varied) = (response.statusCode, headers, kept, varied)
    self.parsed = parsed
    (self.requestTime, self.responseTime) = (requestTime, responseTime)
    // Without a lifetime or a validator it could never be used: not stored (no heuristics).
    guard usableWithoutLifetime || parsed.lifetime != nil || etag != nil || lastModified != nil
    else {
      return nil
    }
  }

  /// An answer read back from the disk tier.
  init(
    status: Int, headers: [String: String], body: Data, requestTime: Date, responseTime: Date,
    varied: [String: String?]
  ) {
    (self.status, self.headers, self.body, self.varied) = (status, headers, body, varied)
    parsed = Parsed(headers)
    (self.requestTime, self.responseTime) = (requestTime, responseTime)
  }

  /// What every read asks of the headers, parsed once when the answer is stored or refreshed
  /// (dates especially: parsing `Date` on each hit cost more than the rest of a lookup).
  private struct Parsed: Sendable {
    let control: CacheControl
    /// `Date`, when it is one.
    let date: Date?
    /// `Age`, in seconds (0 without one).
    let age: TimeInterval
    /// How long it is fresh after it was generated: `max-age`, else `Expires` − `Date`; nil
    /// when neither says (never fresh: no heuristic freshness).
    let lifetime: TimeInterval?

    init(_ headers: [String: String]) {
      control = CacheControl(headers["cache-control"])
      let date = headers["date"].flatMap { HTTPDate.parse($0) }
      self.date = date
      age = headers["age"].flatMap(CacheControl.seconds).map(TimeInterval.init) ?? 0
      if let maxAge = control.maxAge {
        lifetime = TimeInterval(maxAge)
      } else if let expires = headers["expires"] {
        // An `Expires` that is not a date means "already expired" (RFC 9111 §5.3).
        let end = HTTPDate.parse(expires)
        lifetime = end.map { max(0, $0.timeIntervalSince(date ?? $0)) } ?? 0
      } else {
        lifetime = nil
      }
    }
  }

  /// The longest `ETag` or `Last-Modified` kept, in bytes: a larger one would be sent back on
  /// every revalidation (a server answering 431 to it would never see the entry go).
  static let maxValidatorBytes = 8 << 10

  /// Whether a response header is kept: never `Set-Cookie` or another named as a credential
  /// (`X-Auth-Token`, …; CORS headers only name credentials), never an oversized validator.
  private static func keeps(_ name: String, _ value: String) -> Bool {
    switch name {
    case "set-cookie": false
    case "etag", "last-modified": value.utf8.count <= maxValidatorBytes
    case _ where name.hasPrefix("access-control-"): true
    default: !Redactor.standard.isSensitive(header: name)
    }
  }

  var control: CacheControl { parsed.control }
  var etag: String? { headers["etag"] }
  var lastModified: String? { headers["last-modified"] }
  var byteCount: Int {
    body.count + headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
  }

  /// Whether this answer was given for a request like the one whose `Vary` headers
  /// `variedValue` gives (as they are kept).
  func matches(_ variedValue: (String) -> String?) -> Bool {
    varied.allSatisfy { name, value in variedValue(name) == value }
  }

  /// Its current age (RFC 9111 §4.2.3), in seconds.
  func age(at now: Date) -> TimeInterval {
    let apparent = max(0, responseTime.timeIntervalSince(parsed.date ?? responseTime))
    let corrected = parsed.age + max(0, responseTime.timeIntervalSince(requestTime))
    return max(apparent, corrected) + max(0, now.timeIntervalSince(responseTime))
  }

  /// Fresh: usable without asking the server — within its lifetime, or, when it has none,
  /// within the `heuristic` lifetime the client chose (seconds).
  func isFresh(at now: Date, heuristic: TimeInterval? = nil) -> Bool {
    guard !control.noCache, let lifetime = parsed.lifetime ?? heuristic else { return false }
    return age(at: now) < lifetime
  }

  /// Stale, but within its `stale-while-revalidate` window (RFC 5861): usable at once while
  /// a revalidation runs behind it; never with `must-revalidate` or `no-cache`.
  func canServeWhileRevalidating(at now: Date) -> Bool {
    let control = control
    guard let window = control.staleWhileRevalidate, !control.mustRevalidate, !control.noCache,
      let lifetime = parsed.lifetime
    else { return false }
    let staleness = age(at: now) - lifetime
    return staleness >= 0 && staleness <= TimeInterval(window)
  }

  /// Usable in place of a failed request, `maxStale` past its freshness at most (or what its
  /// `stale-if-error` allows); never when it says `must-revalidate` or `no-cache`.
  func canStandIn(at now: Date, maxStale: TimeInterval) -> Bool {
    let control = control
    guard !control.mustRevalidate, !control.noCache else { return false }
    let staleness = age(at: now) - (parsed.lifetime ?? 0)
    return staleness <= control.staleIfError.map(TimeInterval.init) ?? maxStale
  }

  /// Whether a `304` names this answer (RFC 9111 §4.3.4): by its `ETag` — a strong one only
  /// the same strong tag, a weak one any tag with the same opaque value — or, without one, by
  /// its `Last-Modified`. A 304 without a validator answers the request that named this one.
  func isSelected(by response: HTTPURLResponse) -> Bool {
    if let tag = response.value(forHTTPHeaderField: "ETag") {
      guard let etag else { return false }
      guard tag.hasPrefix("W/") else { return tag == etag }
      return tag.dropFirst(2) == (etag.hasPrefix("W/") ? etag.dropFirst(2) : etag[...])
    }
    if let modified = response.value(forHTTPHeaderField: "Last-Modified") {
      return modified == lastModified
    }
    return true
  }

  /// After a `304 Not Modified`: its headers (but `Content-Length` and friends) replace the
  /// stored ones, and the answer counts as received now (RFC 9111 §4.3.4).
  mutating func refresh(with response: HTTPURLResponse, requestTime: Date, responseTime: Date) {
    let kept: Set<String> = ["content-length", "content-encoding", "transfer-encoding"]
    var merged = headers
    for (name, value) in response.allHeaderFields {
      let key = String(describing: name).lowercased()
      let text = String(describing: value)
      if Self.keeps(key, text), !kept.contains(key) { merged[key] = text }
    }
    headers = merged
    (self.requestTime, self.responseTime) = (requestTime, responseTime)
  }
}
