import Foundation

/// A request as a plain value, typed by what its response decodes to:
/// ```swift
/// enum PostRequests {
///   static func get(id: Int) -> Request<Post> { Request(path: "posts/\(id)") }
///   static func create(_ new: NewPost) -> Request<Post> {
///     Request(path: "posts/add", method: .post, body: .json(new))
///   }
/// }
/// let post = try await network.send(PostRequests.get(id: 1)).value  // a Post
/// ```
///
/// Everything but the path has a default (GET, no query, no body, no authentication, the
/// service's retry policy, deadline and size limit); every property can be changed after
/// creation. A type of an app's that makes a request conforms to ``Endpoint``.
public struct Request<Response: Decodable & Sendable>: Endpoint {
  /// Relative to the service's base URL (`users/1` or `/users/1`), or an absolute URL.
  public var path: String
  public var method: HTTPMethod
  /// Query parameters, in order; percent-encoded by the service.
  public var queryItems: [URLQueryItem]
  /// What it sends (JSON, a form, bytes, a file, a multipart form), or nil for nothing.
  public var body: RequestBody?
  /// Applied last; they replace the service's defaults of the same name.
  public var headers: [String: String]
  /// Whether it carries `Authorization: Bearer …` (and takes part in the token's refresh).
  public var requiresAuth: Bool
  /// This request's own retry policy; nil uses the service's.
  public var retryPolicy: RetryPolicy?
  /// This request's own overall deadline; nil uses the service's.
  public var deadline: Duration?
  /// This request's own response size limit in bytes; nil uses the service's
  /// ``NetworkOptions/maxResponseSize``.
  public var maxResponseSize: Int?
  /// Sent as `Idempotency-Key`: the same value on every attempt (and every later replay) of
  /// one change, so the server can answer a repeat with its first answer. Fix it when the
  /// change is made, not when it is sent. A keyed request without its own ``retryPolicy`` is
  /// retried by the service's policy with every write method (POST, PUT, PATCH, DELETE)
  /// included.
  public var idempotencyKey: String?
  /// Sent as `If-Match`: the version (an `ETag`) a write was made from, so a server whose
  /// resource changed since answers 412 Precondition Failed and changes nothing.
  public var ifMatch: String?
  /// How this GET uses the service's ``HTTPCache`` (default ``CachePolicy/useCache``).
  public var cachePolicy: CachePolicy = .useCache
  /// Whether this GET may share one request with identical ones in flight at the same
  /// moment — the same URL, the same headers (the token among them) and the same account —
  /// each caller still getting its own decoded value, and a cancelled one leaving the others
  /// their answer (default true). False sends a request of its own.
  public var coalesces = true
  /// The request itself: a `Request` is its own ``Endpoint``.
  public var request: Request<Response> { self }

  /// `query` takes pairs in order; a nil value leaves the parameter out, so optional
  /// parameters need no `if`: `query: [("limit", limit.map(String.init))]`.
  public init(
    path: String, method: HTTPMethod = .get, query: KeyValuePairs<String, String?> = [:],
    body: RequestBody? = nil, headers: [String: String] = [:],
    requiresAuth: Bool = false, retryPolicy: RetryPolicy? = nil, deadline: Duration? = nil,
    maxResponseSize: Int? = nil, idempotencyKey: String? = nil
  ) {
    self.path = path
    self.method = method
    self.queryItems = query.compactMap { name, value in
      value.map { URLQueryItem(name: name, value: $0) }
    }
    self.body = body
    self.headers = headers
    self.requiresAuth = requiresAuth
    self.retryPolicy = retryPolicy
    self.deadline = deadline
    self.maxResponseSize = maxResponseSize
    self.idempotencyKey = idempotencyKey
  }
}
