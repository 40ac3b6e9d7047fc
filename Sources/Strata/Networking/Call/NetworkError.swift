import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Every failure of a network call: what went wrong (`kind`) and which request it was
/// (`request`, e.g. `GET /users/1`).
///
/// Match on the kind:
/// ```swift
/// catch let error as NetworkError {
///   switch error.kind {
///   case .unauthorized(.notSignedIn): showLogin()
///   case .server(404, _): showNotFound()
///   default: show(error.localizedDescription)
///   }
/// }
/// ```
/// Two errors are equal when their kinds and requests are (`underlying` is not compared).
public struct NetworkError: Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
  /// What went wrong, to switch on; ``NetworkError/isUnauthorized`` groups the session's
  /// kinds, and ``ChangeRefused`` says which a store counts as a refusal.
  public enum Kind: Sendable, Equatable {
    /// The endpoint's path and the base URL do not make a valid URL.
    case invalidURL(String)
    /// The transport returned something that is not an HTTP response.
    case invalidResponse
    /// The request needs a session and has none usable; ``Unauthorized`` says why.
    case unauthorized(Unauthorized)
    /// The request did not complete: no connection, timeout, dropped connection
    /// (its `code` says which).
    case transport(URLError)
    /// The request body could not be encoded; the encoder's explanation.
    case encoding(String)
    /// The response body did not decode into the expected type.
    case decoding(DecodingFailure)
    /// The server answered with a non-success status.
    case server(status: Int, body: Data)
    /// The device has no network route (the ``Connectivity`` in ``NetworkOptions`` says so):
    /// nothing was sent, nothing is retried, no DNS lookup was waited for.
    case offline
    /// The response body grew past the limit (`NetworkOptions/maxResponseSize` or the
    /// endpoint's); the transfer was cancelled. Not retried.
    case responseTooLarge(limit: Int)
    /// The access token had to be refreshed and the refresh did not finish for a reason that is not a
    /// rejection (5xx, no connection, a captive portal's page, an unreadable answer): the session
    /// is kept and trying again later may work. `NetworkError/underlying` holds
    /// the refresh's own error.
    case refreshFailed
    /// The request was redirected to another origin, which answered with a failure status.
    /// No credential went there, so its answer — a 401 included — says nothing about the
    /// session; it is not retried either.
    case answeredElsewhere(status: Int, origin: String)
    /// The call's overall deadline (``NetworkOptions/deadline`` or the endpoint's) passed:
    /// during an attempt, or before a retry could be made. Not retried.
    case deadlineExceeded
  }

  /// Why a request could not be authorised.
  public enum Unauthorized: Sendable, Equatable {
    /// There is no session (or no authenticator): the request was not sent.
    case notSignedIn
    /// The server rejected the access token and then the refresh: the session is over.
    case refreshRejected
    /// The server rejected the access token again right after it was refreshed: the session is
    /// over (or, with no session to refresh, the server answered 401).
    case rejectedAfterRefresh
    /// The server answered 401 to a request that carried no session token (an endpoint that
    /// does not require auth, or a service without an authenticator): nothing was refreshed.
    case signInRequired
    /// The request was made for a session that is not the signed-in one: work done for an
    /// owner who is not signed in now (nothing was sent), or a read whose session ended —
    /// signed out, here or in another process, or replaced by another account's — while its
    /// answer was on the way (the answer was dropped, not cached).
    case sessionEnded
  }

  /// What went wrong.
  public var kind: Kind
  /// Method and path of the request that failed (`GET /users/1`), when known.
  public var request: String?
  /// The error behind this one (the refresh's failure, the encoder's or decoder's error).
  public var underlying: (any Error)?
  /// The server's explanation from the error body, made one safe line, when the
  /// ``ServerMessageFormat`` in use found one.
  public var serverMessage: String?

  /// Creates an error (a mock or a wrapper throws one like any other).
  public init(
    _ kind: Kind, request: String? = nil, serverMessage: String? = nil,
    underlying: (any Error)? = nil
  ) {
    self.kind = kind
    self.request = request
    self.serverMessage = serverMessage.map { UntrustedText.sanitize($0, limit: 200) }
    self.underlying = underlying
  }

  /// The same error, naming `request` (kept when already set).
  func labelled(_ request: String) -> NetworkError {
    var copy = self
    if copy.request == nil { copy.request = request }
    return copy
  }

  /// Whether the request may have reached the server and been carried out although no answer
  /// says so: the connection dropped or timed out once it could have been sent, or the server
  /// failed (5xx) — not when it could not be reached at all, nor a refusal.
  var mayHaveArrived: Bool {
    switch kind {
    case .transport(let error):
      ![.cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet]
        .contains(error.code)
    case .server(let status, _): (500...599).contains(status) && status != 503
    case .deadlineExceeded: true
    default: false
    }
  }

  /// Whether this answers a `DELETE` with "not there" (404 Not Found, 410 Gone): after a send
  /// of the same deletion that may have arrived, its effect rather than a failure.
  var isAbsenceAfterDelete: Bool {
    guard case .server(let status, _) = kind, status == 404 || status == 410 else { return false }
    return request?.hasPrefix("DELETE ") ?? false
  }

  /// Equal kinds, requests and server messages (the underlying error is not compared).
  public static func == (lhs: NetworkError, rhs: NetworkError) -> Bool {
    lhs.kind == rhs.kind && lhs.request == rhs.request && lhs.serverMessage == rhs.serverMessage
  }

  // MARK: Shorthands

  /// A server's answer with an error status, as ``NetworkService`` reports one: for a
  /// transport or a fake of your own (`serverMessage` is what the API said, already
  /// extracted; ``status`` reads the status).
  public static func server(status: Int, body: Data = Data(), serverMessage: String? = nil)
    -> NetworkError
  { NetworkError(.server(status: status, body: body), serverMessage: serverMessage) }

  package static func transport(_ error: URLError) -> NetworkError {
    NetworkError(.transport(error))
  }

  package static func unauthorized(_ reason: Unauthorized) -> NetworkError {
    NetworkError(.unauthorized(reason))
  }

  /// A ``Kind/refreshFailed`` error keeping the refresh's own error.
  package static func refreshFailed(_ error: any Error) -> NetworkError {
    NetworkError(.refreshFailed, underlying: error)
  }

  // MARK: Reading

  /// Whether the request failed for want of a usable session (any ``Unauthorized`` reason).
  public var isUnauthorized: Bool {
    if case .unauthorized = kind { return true }
    return false
  }

  /// The HTTP status, when the server answered.
  public var status: Int? {
    switch kind {
    case .server(let status, _), .answeredElsewhere(let status, _): status
    case .decoding(let failure): failure.status
    case .unauthorized(.refreshRejected), .unauthorized(.rejectedAfterRefresh),
      .unauthorized(.signInRequired):
      401
    default: nil
    }
  }

  /// A sentence a person can read.
  public var errorDescription: String? { description }

  /// `GET /users/1: HTTP 404: not found`, with ``KnownSecrets`` masked and
  /// the server's text sanitised.
  public var description: String {
    let prefix = request.map { "\(UntrustedText.sanitize($0)): " } ?? ""
    return KnownSecrets.mask(prefix + kindDescription)
  }

  private var kindDescription: String {
    switch kind {
    case .invalidURL(let url): "invalid URL '\(UntrustedText.sanitize(url))'"
    case .invalidResponse: "the server's response was not HTTP"
    case .unauthorized(.notSignedIn): "not signed in: sign in first"
    case .unauthorized(.refreshRejected): "the session could not be refreshed: sign in again"
    case .unauthorized(.rejectedAfterRefresh): "the server rejected the session: sign in again"
    case .unauthorized(.signInRequired): "HTTP 401: the server requires signing in"
    case .unauthorized(.sessionEnded):
      "made for a session that is no longer signed in: not sent, or its answer dropped"
    case .transport(let error): "network error: \(Self.describe(error))"
    case .encoding(let reason): "could not encode the request body: \(reason)"
    case .decoding(let failure): failure.description
    case .server(let status, let body):
      if let serverMessage {
        "HTTP \(status): \(serverMessage)"
      } else {
        "HTTP \(status) \(HTTPURLResponse.localizedString(forStatusCode: status))"
          + (body.isEmpty ? "" : " (\(body.count) bytes)")
      }
    case .offline: "offline: no network route"
    case .deadlineExceeded: "the request's deadline passed; it was not finished"
    case .responseTooLarge(let limit):
      (underlying as? StreamLimitExceeded)?.description
        ?? "the response was larger than the \(limit)-byte limit; the transfer was stopped"
    case .answeredElsewhere(let status, let origin):
      "HTTP \(status) from \(UntrustedText.sanitize(origin)), where the API redirected the request"
    case .refreshFailed:
      "could not refresh the session (it is kept; try again)"
        + (underlying.map { ": \(UntrustedText.sanitize(String(describing: $0)))" } ?? "")
    }
  }

  static func describe(_ error: URLError) -> String {
    switch error.code {
    case .timedOut: "the request timed out"
    case .cannotConnectToHost: "could not connect to the server"
    case .networkConnectionLost: "the connection was lost"
    case .notConnectedToInternet: "not connected to the internet"
    case .cannotFindHost, .dnsLookupFailed: "the server's name could not be resolved"
    case .cancelled: "the request was cancelled"
    case .secureConnectionFailed: "a secure (TLS) connection could not be made"
    case .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
      "the server's certificate is not trusted"
    case .badServerResponse:
      error.userInfo[NSLocalizedDescriptionKey] as? String
        ?? "the server's response could not be read"
    // A download's file: the reason (a full disk, no permission) is in the description.
    case .cannotWriteToFile, .cannotCreateFile:
      error.userInfo[NSLocalizedDescriptionKey] as? String ?? "the file could not be written"
    // Foundation's text for other codes is "The operation could not be completed" on Linux.
    default: "URLError \(error.code.rawValue)"
    }
  }
}

extension NetworkError {
  /// What went wrong while decoding, with enough context to fix it.
  public struct DecodingFailure: Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status of the response.
    public var status: Int
    /// Where in the JSON it failed, e.g. `users[3].address.city`.
    public var codingPath: String
    /// What the decoder said.
    public var reason: String
    /// The first characters of the body (secrets redacted).
    public var bodyExcerpt: String

    /// Creates a failure (what a test double throws to stand in for a decoder's).
    public init(status: Int, codingPath: String, reason: String, bodyExcerpt: String = "") {
      (self.status, self.codingPath, self.reason, self.bodyExcerpt) = (
        status, codingPath, reason, bodyExcerpt
      )
    }

    /// One line naming status, path and reason; the server's text in it is sanitised and
    /// known secrets are masked.
    public var description: String {
      let path = codingPath.isEmpty ? "the top level" : "'\(UntrustedText.sanitize(codingPath))'"
      return
        "HTTP \(status): could not decode \(path): \(UntrustedText.sanitize(reason)) — body: \(UntrustedText.sanitize(bodyExcerpt, limit: 200))"
    }
  }
}
