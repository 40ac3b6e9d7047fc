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

    /// One line naming status, path and reason.
    public var description: String {
      let path = codingPath.isEmpty ? "the top level" : "'\(codingPath)'"
      return "HTTP \(status): could not decode \(path): \(reason) — body: \(bodyExcerpt)"
    }
  }

  /// Whether trying again could help: timeouts, lost or refused connections, 408, 429, 5xx.
  /// The retry policy decides what is actually retried.
  public var isRetryable: Bool {
    switch self {
    case .transport(let error): RetryPolicy.defaultRetryableErrors.contains(error.code)
    case .server(let status, _): status == 408 || status == 429 || (500...599).contains(status)
    case .invalidURL, .invalidResponse, .unauthorized, .encoding, .decoding: false
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

  /// The server's own explanation from a DummyJSON-style `{"message": "…"}` body.
  public var serverMessage: String? {
    guard case .server(_, let body) = self,
      let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    else { return nil }
    return object["message"] as? String ?? object["error"] as? String
  }

  /// A sentence a person can read.
  public var errorDescription: String? { description }

  /// A sentence a person can read.
  public var description: String {
    switch self {
    case .invalidURL(let url): "invalid URL '\(url)'"
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
