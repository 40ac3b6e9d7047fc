import Foundation

/// What ``NetworkService`` sends: a ``Request``, typed by what its response decodes to, so
/// `try await network.send(UserRequests.get(id: 1)).value` is a `User` with no annotation.
///
/// `Request` is one; conform a type of your own when making the request takes logic (a path
/// built from several values, a body from a form) — it says only which request it is.
public protocol Endpoint: Sendable {
  /// What a successful response is: a type decoded from JSON, `Data` for the body as it came
  /// (an image; `Accept: */*`), `String` for its text in the answer's charset (UTF-8 when it
  /// names none), ``EmptyResponse`` for 204 or a body ignored. A body too large for memory is
  /// a ``Download``.
  associatedtype Response: Decodable & Sendable

  /// The request to send.
  var request: Request<Response> { get }
}

/// How a GET uses the HTTP cache.
public enum CachePolicy: Sendable, Equatable {
  /// A fresh stored answer without a request; a stale one revalidated, or standing in when the
  /// server cannot be reached.
  case useCache
  /// Always ask the server (a refresh: the user wants what is there now); a stored answer is
  /// revalidated (304: no body) and may still stand in when the server cannot be reached.
  case revalidate
  /// Neither read nor write the cache.
  case bypass
  /// As ``useCache``, and an answer whose server gave it no lifetime is fresh for `lifetime`
  /// after it arrived: the client's own choice (a heuristic, RFC 9111 §4.2.2) for a server
  /// that says nothing of freshness, as DummyJSON does. The server's `max-age` and `no-cache`
  /// still win.
  case freshFor(Duration)

  /// Whether a fresh kept answer is used without a request.
  var usesFreshAnswers: Bool {
    switch self {
    case .useCache, .freshFor: true
    case .revalidate, .bypass: false
    }
  }

  /// The client's lifetime for answers without one, in seconds.
  var heuristicLifetime: TimeInterval? {
    if case .freshFor(let lifetime) = self { return lifetime.inSeconds }
    return nil
  }
}

/// The response of an endpoint that returns nothing worth decoding (204, an empty body, or a
/// body the caller ignores).
public struct EmptyResponse: Decodable, Sendable, Equatable {
  /// Creates an empty response (what a test double returns for a request without a body).
  public init() {}

  /// Accepts any JSON value (or none): the body is ignored.
  public init(from decoder: any Decoder) throws {}
}
