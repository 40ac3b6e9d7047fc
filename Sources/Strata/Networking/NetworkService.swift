import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends ``Endpoint``s over an ``HTTPTransport``: builds the request, adds the bearer token,
/// retries with backoff, renews the token once when the server rejects it (401, or what
/// ``NetworkOptions/credentialRejection`` says), enforces one overall deadline, decodes
/// the response off the caller's actor, and logs every step with secrets redacted.
public final class NetworkService: Networking {
  /// Settings (base URL, deadline, retry policy, User-Agent).
  public let options: NetworkOptions
  private let transport: any HTTPTransport
  private let authenticator: (any Authenticator)?
  private let clock: any NetworkClock
  private let decoder: JSONDecoder
  private let builder: RequestBuilder
  private let logger: Log
  private let redactor: Redactor

  /// - Parameters:
  ///   - options: Base URL, deadline, retry policy, User-Agent.
  ///   - transport: The HTTP seam (default: a `URLSessionTransport`).
  ///   - authenticator: Supplies and renews bearer tokens for `requiresAuth` endpoints.
  ///   - clock: Backoff sleeps and deadline accounting (tests inject a manual clock).
  ///   - decoder: Decodes responses.
  ///   - encoder: Encodes bodies.
  ///   - logger: Where to log (default ``Log/networking``).
  ///   - redactor: What to hide in logs.
  public init(
    options: NetworkOptions, transport: any HTTPTransport = URLSessionTransport(),
    authenticator: (any Authenticator)? = nil, clock: any NetworkClock = SystemNetworkClock(),
    decoder: JSONDecoder = JSONDecoder(), encoder: JSONEncoder = JSONEncoder(),
    logger: Log = Log.networking, redactor: Redactor = .standard
  ) {
    self.options = options
    self.transport = transport
    self.authenticator = authenticator
    self.clock = clock
    self.decoder = decoder
    self.builder = RequestBuilder(options: options, encoder: encoder)
    self.logger = logger
    self.redactor = redactor
  }

  // MARK: Sending

  /// Sends `endpoint` and decodes its response.
  ///
  /// A nonisolated async function: it runs on the global executor, so decoding a large body
  /// never happens on the caller's actor (the main actor, for a view model).
  /// - Throws: ``NetworkError``; `CancellationError` when the task is cancelled (no further
  ///   attempt is made).
  public func send<E: Endpoint>(_ endpoint: E) async throws -> E.Response {
    let label = Self.label(endpoint.method, endpoint.path)
    do {
      return try await send(endpoint, label: label)
    } catch let error as NetworkError {
      throw error.labelled(label)
    }
  }

  private func send<E: Endpoint>(_ endpoint: E, label: String) async throws -> E.Response {
    let deadline = clock.now() + (endpoint.timeout ?? options.timeout)
    var policy = endpoint.retryPolicy ?? options.retryPolicy
    if endpoint.retryPolicy == nil, endpoint.idempotencyKey != nil {
      // A key makes a repeat harmless: the service's policy, POST and PATCH included.
      policy.retryableMethods.formUnion([.post, .patch])
    }
    var request = try builder.build(endpoint)

    let maxResponseSize = endpoint.maxResponseSize ?? options.maxResponseSize

    var token: String?
    if endpoint.requiresAuth, let authenticator, let url = request.url,
      !authenticator.origin.contains(url)
    {
      // A token belongs to the origin that issued it: an endpoint elsewhere goes without it.
      logger.notice(
        "\(label): \(Origin(url)?.description ?? "that URL") is not \(authenticator.origin), which issued the session; sending it without credentials"
      )
    } else if endpoint.requiresAuth {
      guard let authenticator, let current = try await authenticator.accessToken() else {
        logger.info("\(label): not signed in; request not sent")
        throw NetworkError.unauthorized(.notSignedIn)
      }
      token = current
      request.setValue("Bearer \(current)", forHTTPHeaderField: "Authorization")
    }

    var retries = 0
    var refreshed = false
    var attempt = 0
    var retryReason: String?
    while true {
      try Task.checkCancellation()
      attempt += 1
      let remaining = deadline - clock.now()
      guard remaining > .zero else { throw Self.deadlineExceeded(label, logger) }
      if let connectivity = options.connectivity, !connectivity.isOnline, let url = request.url,
        Origin(url)?.isLoopback != true
      {
        logger.info("\(label): offline (no network route); not sent")
        throw NetworkError(.offline)
      }

      let failure: NetworkError
      var retryAfter: Duration?
      let outcome = await perform(
        request, within: remaining, maxResponseSize: maxResponseSize, label: label,
        attempt: attempt, retryReason: retryReason)
      try Task.checkCancellation()
      switch outcome {
      case .success(let (data, response)):
        let status = response.statusCode
        if !(200..<300).contains(status), let elsewhere = Self.redirectedOrigin(request, response) {
          // Only the session's own origin can reject its token; nothing was retried there.
          logger.debug("\(label) → \(status) from \(elsewhere) after a redirect")
          throw NetworkError(.answeredElsewhere(status: status, origin: elsewhere.description))
        }
        if let authenticator, let rejected = token,
          options.credentialRejection.rejects(status: status, body: data)
        {
          guard !refreshed else {
            logger.info(
              "\(label) → \(status): the renewed token was rejected too; ending the session")
            await authenticator.rejected(renewedToken: rejected)
            throw NetworkError.unauthorized(.rejectedAfterRefresh)
          }
          refreshed = true
          let renewed = try await renew(rejected, status: status, with: authenticator, label: label)
          token = renewed
          request.setValue("Bearer \(renewed)", forHTTPHeaderField: "Authorization")
          retryReason = "token renewed after \(status)"
          continue
        }
        if (200..<300).contains(status) { return try decode(E.Response.self, data, status: status) }
        if status == 401 { throw NetworkError.unauthorized(.rejectedAfterRefresh) }
        failure = .server(
          status: status, body: data,
          serverMessage: options.serverMessageFormat.message(status: status, body: data))
        if status == 429 || status == 503,
          let value = response.value(forHTTPHeaderField: "Retry-After")
        {
          retryAfter = RetryPolicy.parseRetryAfter(value)
        }
      case .failure(let error):
        failure = error
      }

      guard retries < policy.maxRetries, policy.shouldRetry(failure, method: endpoint.method) else {
        logger.debug("\(label) failed: \(failure)")
        throw failure
      }
      retries += 1
      let reason = Self.reason(failure)
      retryReason = reason
      let delay = policy.delay(forRetry: retries, retryAfter: retryAfter)
      guard clock.now() + delay < deadline else {
        logger.info("\(label): no time left for retry \(retries) before the deadline")
        throw failure
      }
      logger.info(
        "retry \(retries)/\(policy.maxRetries) in \(delay.shortDescription): \(label) → \(reason)"
      )
      options.onRetry?(
        RetryNotice(
          retry: retries, maxRetries: policy.maxRetries, delay: delay, request: label,
          reason: reason))
      try await clock.sleep(for: delay)
    }
  }

  // MARK: Steps

  /// The origin that answered, when a redirect took the request away from its own.
  private static func redirectedOrigin(_ request: URLRequest, _ response: HTTPURLResponse)
    -> Origin?
  {
    guard let sent = request.url.flatMap(Origin.init), let answered = response.url,
      !sent.contains(answered)
    else { return nil }
    return Origin(answered)
  }

  /// One exchange within the time left (FoundationNetworking has no overall timeout, so the
  /// transport enforces it: see ``HTTPTransport/send(_:deadline:)``). This deadline is real
  /// time even when a test injects a manual clock: it guards real I/O.
  private func perform(
    _ request: URLRequest, within remaining: Duration, maxResponseSize: Int, label: String,
    attempt: Int, retryReason: String?
  ) async -> Result<(Data, HTTPURLResponse), NetworkError> {
    let started = ContinuousClock.now
    let outcome = await exchange(
      request, within: remaining, maxResponseSize: maxResponseSize, label: label,
      attempt: attempt)
    record(
      outcome, of: request, label: label, attempt: attempt, retryReason: retryReason,
      duration: ContinuousClock.now - started)
    return outcome
  }

  /// The attempt through the middleware chain to the transport, its failures as
  /// ``NetworkError``s.
  private func exchange(
    _ request: URLRequest, within remaining: Duration, maxResponseSize: Int, label: String,
    attempt: Int
  ) async -> Result<(Data, HTTPURLResponse), NetworkError> {
    if logger.isEnabled(.debug) {
      logger.debug(
        "→ \(request.httpMethod ?? "GET") \(request.url.map(redactor.redact(url:)) ?? "?") (attempt \(attempt))"
      )
    }
    if logger.isEnabled(.trace) {
      logger.trace(
        "  request headers: \(redactor.redact(headers: request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key })"
      )
      if let body = request.httpBody {
        logger.trace("  request body: \(redactor.redact(body: body))")
      }
    }
    let transport = transport
    var next: HTTPMiddlewareNext = { request in
      try await transport.send(request, deadline: remaining, maxResponseSize: maxResponseSize)
    }
    let described = RequestAttempt(label: label, number: attempt)
    for middleware in options.middleware.reversed() {
      let inner = next
      next = { request in try await middleware.intercept(request, attempt: described, next: inner) }
    }
    do {
      let (data, response) = try await next(request)
      if logger.isEnabled(.trace) {
        let headers = response.allHeaderFields.reduce(into: [String: String]()) {
          $0[String(describing: $1.key)] = String(describing: $1.value)
        }
        logger.trace(
          "  response headers: \(redactor.redact(headers: headers).sorted { $0.key < $1.key })")
        logger.trace("  response body: \(redactor.redact(body: data))")
      }
      return .success((data, response))
    } catch let error as NetworkError {
      return .failure(error)
    } catch let error as URLError {
      if error.code == .badServerResponse { return .failure(NetworkError(.invalidResponse)) }
      if error.code == .dataLengthExceedsMaximum {
        logger.info("\(label): response over the \(maxResponseSize)-byte limit; transfer stopped")
        return .failure(NetworkError(.responseTooLarge(limit: maxResponseSize)))
      }
      if error.code == .cancelled, Task.isCancelled {
        return .failure(.transport(URLError(.cancelled)))
      }
      return .failure(.transport(error))
    } catch is CancellationError {
      return .failure(.transport(URLError(.cancelled)))
    } catch {
      return .failure(.transport(URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error])))
    }
  }

  /// Emits the attempt's ``RequestRecord``: to the request log, and as the fields of the
  /// `networking` debug line.
  private func record(
    _ outcome: Result<(Data, HTTPURLResponse), NetworkError>, of request: URLRequest,
    label: String, attempt: Int, retryReason: String?, duration: Duration
  ) {
    let logs = logger.isEnabled(.debug)
    guard logs || options.requestLog != nil || options.onRequestRecord != nil else {
      return
    }
    var record = RequestRecord(
      method: request.httpMethod ?? "GET", url: request.url.map(redactor.redact(url:)) ?? "?",
      status: nil, durationMilliseconds: duration.inSeconds * 1000,
      bytesSent: request.httpBody?.count ?? 0, bytesReceived: 0, attempt: attempt,
      retryReason: retryReason)
    switch outcome {
    case .success(let (data, response)):
      record.status = response.statusCode
      record.bytesReceived = data.count
    case .failure(let error):
      record.error = Self.reason(error)
    }
    options.requestLog?.append(record)
    options.onRequestRecord?(record)
    if logs {
      let outcomeText = record.status.map(String.init) ?? "failed (\(record.error ?? "?"))"
      logger.log(
        .debug,
        "← \(outcomeText) \(label) in \(duration.shortDescription), \(record.bytesReceived) bytes",
        fields: record.fields)
    }
  }

  /// Asks the authenticator for a token after a 401.
  private func renew(
    _ rejected: String, status: Int, with authenticator: any Authenticator, label: String
  ) async throws -> String {
    logger.info("\(label) → \(status): the access token was rejected; renewing it")
    do {
      return try await authenticator.refresh(rejectedToken: rejected)
    } catch let error as NetworkError where error.isRetryable {
      throw error
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      throw NetworkError.unauthorized(.refreshRejected)
    }
  }

  private func decode<Response: Decodable>(_ type: Response.Type, _ data: Data, status: Int) throws
    -> Response
  {
    if type == EmptyResponse.self, let empty = EmptyResponse() as? Response { return empty }
    do {
      return try decoder.decode(type, from: data)
    } catch {
      throw NetworkError(
        .decoding(
          .init(
            status: status, codingPath: Self.codingPath(of: error),
            reason: Self.reason(of: error), bodyExcerpt: redactor.redact(body: data, limit: 200))),
        underlying: error)
    }
  }

  // MARK: Formatting

  /// `GET /users/1` for logs and retry notices, from the endpoint's path with plain string
  /// work (reading `URL.path` costs microseconds per call on Linux).
  static func label(_ method: HTTPMethod, _ path: String) -> String {
    let withoutQuery =
      path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    if withoutQuery.contains("://") {
      return
        "\(method) \(URLComponents(string: String(withoutQuery))?.path ?? String(withoutQuery))"
    }
    return "\(method) /" + withoutQuery.drop { $0 == "/" }
  }

  private static func deadlineExceeded(_ label: String, _ logger: Log) -> NetworkError {
    logger.info("\(label): overall deadline exceeded")
    return .transport(URLError(.timedOut))
  }

  private static func reason(_ error: NetworkError) -> String {
    switch error.kind {
    case .server(let status, _): String(status)
    case .transport(let urlError): "URLError \(urlError.code.rawValue)"
    default: error.description
    }
  }

  static func codingPath(of error: any Error) -> String {
    let path: [any CodingKey]
    switch error as? DecodingError {
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      path = context.codingPath
    case .keyNotFound(let key, let context):
      path = context.codingPath + [key]
    default:
      return ""
    }
    return path.reduce(into: "") { text, key in
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
  }

  static func reason(of error: any Error) -> String {
    switch error as? DecodingError {
    case .typeMismatch(let type, _): "expected \(type)"
    case .valueNotFound(let type, _): "missing \(type) value"
    case .keyNotFound: "missing key"
    case .dataCorrupted(let context):
      context.codingPath.isEmpty ? "not valid JSON" : context.debugDescription
    default: String(describing: error)
    }
  }
}
