import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The HTTP cache ``NetworkService`` keeps for GET answers (RFC 9111, as a private client
/// cache): a fresh answer is used without a request; a stale one is revalidated with its
/// `ETag` (`If-None-Match`) or `Last-Modified` (`If-Modified-Since`), and a `304 Not Modified`
/// refreshes it without a body; when the server cannot be reached or answers 5xx, a stale
/// answer stands in up to its `stale-if-error` (else ``maxStale``). `no-store` answers and
/// `Set-Cookie` headers are never kept; no answer is fresh unless it says how long it is (no
/// heuristic freshness). A successful POST, PUT, PATCH or DELETE drops what was kept for its
/// URL, so a list never looks older than the user's own change.
///
/// Answers to requests that carry a bearer token are not kept: they belong to one signed-in
/// user, and this cache does not separate users.
///
/// Bounded by bytes, least recently used first out; a lookup and a store cost the same
/// whatever the number of entries. In memory: an app restarted offline starts empty.
public final class HTTPCache: Sendable {
  /// The most bytes (bodies and headers) kept.
  public let maxBytes: Int
  /// How long past its freshness a stored answer may stand in for a failed request, when
  /// the answer itself does not say (`stale-if-error`).
  public let maxStale: Duration
  private let now: @Sendable () -> Date

  private struct State {
    var entries: [String: Node] = [:]
    var bytes = 0
    /// Most recently used at the head; `nil` ends the list.
    var head: String?
    var tail: String?
  }

  private struct Node {
    var response: CachedResponse
    var newer: String?
    var older: String?
  }

  private let state = Lock(State())

  /// - Parameter maxBytes: The byte budget (default 50 MiB).
  /// - Parameter maxStale: How long past its freshness an answer may stand in for a failure
  ///   (default one day).
  /// - Parameter now: Wall-clock time (tests inject their own).
  public init(
    maxBytes: Int = 50 << 20, maxStale: Duration = .seconds(86_400),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    (self.maxBytes, self.maxStale, self.now) = (max(0, maxBytes), maxStale, now)
  }

  /// How many answers are kept.
  public var count: Int { state.withLock { $0.entries.count } }
  /// The bytes they take.
  public var byteCount: Int { state.withLock { $0.bytes } }

  /// Forgets everything (sign-out, or the user asked).
  public func removeAll() { state.withLock { $0 = State() } }

  // MARK: Used by NetworkService

  var currentDate: Date { now() }

  static func key(_ request: URLRequest) -> String? {
    guard request.httpMethod ?? "GET" == "GET", let url = request.url else { return nil }
    return url.absoluteString
  }

  /// The stored answer for a request like `request`, marked as just used.
  func lookUp(_ request: URLRequest) -> CachedResponse? {
    guard let key = Self.key(request) else { return nil }
    return state.withLock { state in
      guard let node = state.entries[key], node.response.matches(request) else { return nil }
      Self.touch(key, &state)
      return node.response
    }
  }

  /// Keeps `response` for `request` when it may be kept; drops an older one either way.
  func store(_ response: CachedResponse?, for request: URLRequest) {
    guard let key = Self.key(request) else { return }
    state.withLock { state in
      Self.remove(key, &state)
      guard let response, response.byteCount <= maxBytes else { return }
      state.entries[key] = Node(response: response, newer: nil, older: nil)
      state.bytes += response.byteCount
      Self.link(key, &state)
      while state.bytes > maxBytes, let oldest = state.tail { Self.remove(oldest, &state) }
    }
  }

  /// Drops what is kept for `url` (after a change to it).
  func invalidate(_ url: URL) {
    state.withLock { Self.remove(url.absoluteString, &$0) }
  }

  // MARK: The recency list

  private static func touch(_ key: String, _ state: inout State) {
    guard state.head != key else { return }
    unlink(key, &state)
    link(key, &state)
  }

  private static func link(_ key: String, _ state: inout State) {
    state.entries[key]?.older = state.head
    state.entries[key]?.newer = nil
    if let head = state.head { state.entries[head]?.newer = key }
    state.head = key
    if state.tail == nil { state.tail = key }
  }

  private static func unlink(_ key: String, _ state: inout State) {
    guard let node = state.entries[key] else { return }
    if let newer = node.newer {
      state.entries[newer]?.older = node.older
    } else {
      state.head = node.older
    }
    if let older = node.older {
      state.entries[older]?.newer = node.newer
    } else {
      state.tail = node.newer
    }
  }

  private static func remove(_ key: String, _ state: inout State) {
    guard let node = state.entries[key] else { return }
    unlink(key, &state)
    state.entries[key] = nil
    state.bytes -= node.response.byteCount
  }
}

/// Where an answer came from, for a screen that says "offline — from 12 min ago".
public enum ResponseSource: Sendable, Equatable {
  /// The server sent it just now.
  case network
  /// A fresh stored answer; no request was made. `age` in whole seconds.
  case cache(age: Int)
  /// A stored answer the server confirmed unchanged (`304 Not Modified`) just now.
  case revalidated
  /// A stored answer past its freshness, standing in because the server could not be reached
  /// or failed. `age` in whole seconds.
  case stale(age: Int)

  /// `miss`, `hit`, `revalidated` or `stale`: what a request record and `--http-log` show.
  public var label: String {
    switch self {
    case .network: "miss"
    case .cache: "hit"
    case .revalidated: "revalidated"
    case .stale: "stale"
    }
  }
}
