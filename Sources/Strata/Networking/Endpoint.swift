import Foundation

/// What ``NetworkService`` sends: a request with the type its response decodes to, so
/// `try await network.send(UserRequests.get(id: 1))` returns a `User` with no annotation.
///
/// Most calls are ``Request`` values; conform a type of your own when a request needs logic.
/// Only ``path`` is required; everything else has a default (GET, no headers, no query,
/// no body, no auth, the service's retry policy and deadline).
public protocol Endpoint: Sendable {
  /// What a successful response decodes to (``EmptyResponse`` for 204 or an empty body).
  associatedtype Response: Decodable & Sendable

  /// Path relative to the service's base URL (`users/1` or `/users/1`), or an absolute URL.
  var path: String { get }
  /// The method (default GET).
  var method: HTTPMethod { get }
  /// Header fields; they are applied last and replace defaults of the same name.
  var headers: [String: String] { get }
  /// Query parameters, in order; values are percent-encoded by the service.
  var queryItems: [URLQueryItem] { get }
  /// A JSON body, or nil for none.
  var body: (any Encodable & Sendable)? { get }
  /// Whether the request carries `Authorization: Bearer …` and takes part in 401 refresh.
  var requiresAuth: Bool { get }
  /// A retry policy for this endpoint only; nil uses the service's.
  var retryPolicy: RetryPolicy? { get }
  /// An overall deadline for this endpoint only (retries included); nil uses the service's.
  var deadline: Duration? { get }
  /// Largest response body accepted for this request in bytes; nil
  /// uses the service's `NetworkOptions/maxResponseSize`.
  var maxResponseSize: Int? { get }
  /// Sent as `Idempotency-Key`: the same value on every attempt (and every later replay) of
  /// one change, so the server can answer a repeat with its first answer. Fix it when the
  /// change is made, not when it is sent. A keyed request without its own ``retryPolicy`` is
  /// retried by the service's policy with POST and PATCH included.
  var idempotencyKey: String? { get }
  /// How a GET uses the service's ``HTTPCache`` (default ``CachePolicy/useCache``).
  var cachePolicy: CachePolicy { get }
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
}

extension Endpoint {
  public var method: HTTPMethod { .get }
  public var headers: [String: String] { [:] }
  public var queryItems: [URLQueryItem] { [] }
  public var body: (any Encodable & Sendable)? { nil }
  public var requiresAuth: Bool { false }
  /// The service's retry policy.
  public var retryPolicy: RetryPolicy? { nil }
  public var deadline: Duration? { nil }
  public var maxResponseSize: Int? { nil }
  public var idempotencyKey: String? { nil }
  public var cachePolicy: CachePolicy { .useCache }
}

/// The response of an endpoint that returns nothing worth decoding (204, an empty body, or a
/// body the caller ignores).
public struct EmptyResponse: Decodable, Sendable, Equatable {
  /// Creates an empty response (what a test double returns for a request without a body).
  public init() {}

  /// Accepts any JSON value (or none): the body is ignored.
  public init(from decoder: any Decoder) throws {}
}
