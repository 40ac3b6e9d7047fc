import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A step between ``NetworkService`` and its ``HTTPTransport``, run for every attempt: it may
/// change the request, look at or replace the response, or throw. Middleware runs in the
/// order of ``NetworkOptions/middleware``; each calls `next` to go on.
///
/// Transport or middleware? Write a transport to change *how bytes travel* (another HTTP stack, a
/// recorded replay); write a middleware to change *what is sent or seen* (a header on every
/// request, metrics, a request log) while keeping retries, deadlines, token refresh and redaction.
/// Bodies pass through as they stream (``HTTPBody``): a middleware that hands them on
/// untouched keeps downloads and event streams flowing.
/// ```swift
/// struct CountAttempts: HTTPMiddleware {
///   let counter: Counter
///   func intercept(
///     _ request: URLRequest, body: HTTPBody?, attempt: RequestAttempt,
///     next: HTTPMiddlewareNext
///   ) async throws -> (HTTPURLResponse, HTTPBody) {
///     counter.increment()
///     return try await next(request, body)
///   }
/// }
/// ```
public protocol HTTPMiddleware: Sendable {
  /// Handles one attempt: call `next` (at most once) to send `request` and `body` on.
  func intercept(
    _ request: URLRequest, body: HTTPBody?, attempt: RequestAttempt, next: HTTPMiddlewareNext
  ) async throws -> (HTTPURLResponse, HTTPBody)
}

/// The rest of the chain: the next middleware, then the transport.
public typealias HTTPMiddlewareNext =
  @Sendable (URLRequest, HTTPBody?) async throws -> (HTTPURLResponse, HTTPBody)

/// Which attempt a middleware sees.
public struct RequestAttempt: Sendable, Equatable {
  /// `GET /users/1`: the method and path, no query (safe to log).
  public let label: String
  /// 1 for the first attempt, 2 for the first retry, …
  public let number: Int

  /// Creates an attempt description (for tests of your own middleware).
  public init(label: String, number: Int) {
    (self.label, self.number) = (label, number)
  }
}

/// Adds header fields a request does not set itself — an API key, a client version. Values of
/// secret header names (`X-API-Key`, anything with `token`, `secret`, …) are registered with
/// ``KnownSecrets``, so they are masked wherever they might appear.
/// ```swift
/// options.middleware = [DefaultHeaders(["X-API-Key": try config.string("API_KEY")])]
/// ```
public struct DefaultHeaders: HTTPMiddleware, CustomStringConvertible, CustomReflectable {
  public let headers: [String: String]

  public init(_ headers: [String: String]) {
    self.headers = headers
    KnownSecrets.register(
      headers.filter { Redactor.standard.isSensitive(header: $0.key) }.map(\.value))
  }

  /// Adds the fields the request lacks, then sends it on.
  public func intercept(
    _ request: URLRequest, body: HTTPBody?, attempt: RequestAttempt, next: HTTPMiddlewareNext
  ) async throws -> (HTTPURLResponse, HTTPBody) {
    var request = request
    for (name, value) in headers where request.value(forHTTPHeaderField: name) == nil {
      request.setValue(value, forHTTPHeaderField: name)
    }
    return try await next(request, body)
  }

  /// The fields, secret values as `<redacted>`: printing the app's middleware, or `dump` of
  /// its options, does not show an API key.
  public var description: String {
    let shown = Redactor.standard.redact(headers: headers).sorted { $0.key < $1.key }
    return "DefaultHeaders(" + shown.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")"
  }

  /// The same fields for `dump` and debuggers.
  public var customMirror: Mirror {
    Mirror(self, children: ["headers": Redactor.standard.redact(headers: headers)])
  }
}
