import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Every failure of a network call, one public error type for the layer.
public enum NetworkError: Error, Sendable, LocalizedError, CustomStringConvertible {
  /// The endpoint's path and the base URL do not make a valid URL.
  case invalidURL(String)
  /// The transport returned something that is not an HTTP response.
  case invalidResponse
  /// Not signed in, the refresh failed, or the server still answered 401 after a refresh.
  case unauthorized
  /// The request did not complete: no connection, timeout, dropped connection. The
  /// `URLError` is kept (its `code` says which).
  case transport(URLError)
  /// The request body could not be encoded.
  case encoding(any Error)
  /// The response body did not decode into the expected type.
  case decoding(DecodingFailure)
  /// The server answered with a non-success status.
  case server(status: Int, body: Data)
  /// The response body grew past the limit (``NetworkConfiguration/maxResponseSize`` or the
  /// endpoint's); the transfer was cancelled. Not retried.
  case responseTooLarge(limit: Int)
  /// The access token had to be renewed and the refresh did not finish for a reason that is not
  /// a rejection (5xx, no connection, a captive portal's HTML page, an unreadable answer): the
  /// session is kept, and trying again later may work. The refresh's own error is kept.
  case refreshFailed(any Error)

  /// What went wrong while decoding, with enough context to fix it.
  public struct DecodingFailure: Sendable, CustomStringConvertible {
    /// The HTTP status of the response.
    public let status: Int
    /// Where in the JSON it failed, e.g. `users[3].address.city`.
    public let codingPath: String
    /// What the decoder said.
    public let reason: String
    /// The first characters of the body (secrets redacted).
    public let bodyExcerpt: String
    /// The decoder's error.
    public let underlying: any Error

    /// One line naming status, path and reason; the server's text in it is sanitised and
    /// known secrets are masked.
    public var description: String {
      let path = codingPath.isEmpty ? "the top level" : "'\(UntrustedText.sanitize(codingPath))'"
      return
        "HTTP \(status): could not decode \(path): \(UntrustedText.sanitize(reason)) — body: \(UntrustedText.sanitize(bodyExcerpt, limit: 200))"
    }
  }

  /// Whether trying again could help: timeouts, lost or refused connections, 408, 429, 5xx.
  /// The retry policy decides what is actually retried.
  public var isRetryable: Bool {
    switch self {
    case .transport(let error): RetryPolicy.defaultRetryableErrors.contains(error.code)
    case .server(let status, _): status == 408 || status == 429 || (500...599).contains(status)
    case .refreshFailed: true
    case .invalidURL, .invalidResponse, .unauthorized, .encoding, .decoding, .responseTooLarge:
      false
    }
  }

  /// The HTTP status, when the server answered.
  public var status: Int? {
    switch self {
    case .server(let status, _): status
    case .decoding(let failure): failure.status
    case .unauthorized: 401
    default: nil
    }
  }

  /// The server's own explanation from a DummyJSON-style `{"message": "…"}` body, made one
  /// safe line (see ``UntrustedText``): a hostile server's text never reaches a terminal raw.
  public var serverMessage: String? {
    guard case .server(_, let body) = self, body.count <= 64 * 1024,
      let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
      let message = object["message"] as? String ?? object["error"] as? String
    else { return nil }
    return UntrustedText.sanitize(message, limit: 200)
  }

  /// A sentence a person can read.
  public var errorDescription: String? { description }

  /// A sentence a person can read, with ``KnownSecrets`` masked.
  public var description: String { KnownSecrets.mask(rawDescription) }

  private var rawDescription: String {
    switch self {
    case .invalidURL(let url): "invalid URL '\(UntrustedText.sanitize(url))'"
    case .invalidResponse: "the server's response was not HTTP"
    case .unauthorized: "not authorized: sign in again"
    case .transport(let error): "network error: \(Self.describe(error))"
    case .encoding(let error): "could not encode the request body: \(error)"
    case .decoding(let failure): failure.description
    case .server(let status, let body):
      if let message = serverMessage {
        "HTTP \(status): \(message)"
      } else {
        "HTTP \(status) \(HTTPURLResponse.localizedString(forStatusCode: status))"
          + (body.isEmpty ? "" : " (\(body.count) bytes)")
      }
    case .responseTooLarge(let limit):
      "the response was larger than the \(limit)-byte limit; the transfer was stopped"
    case .refreshFailed(let error):
      "could not renew the session (it is kept; try again): \(UntrustedText.sanitize(String(describing: error)))"
    }
  }

  private static func describe(_ error: URLError) -> String {
    switch error.code {
    case .timedOut: "the request timed out"
    case .cannotConnectToHost: "could not connect to the server"
    case .networkConnectionLost: "the connection was lost"
    case .notConnectedToInternet: "not connected to the internet"
    case .cannotFindHost, .dnsLookupFailed: "the server's name could not be resolved"
    case .cancelled: "the request was cancelled"
    default: "URLError \(error.code.rawValue): \(error.localizedDescription)"
    }
  }
}
