import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends ``Endpoint``s over an ``HTTPTransport``: builds the request, adds the bearer token,
/// retries with backoff, renews the token once when the server rejects it (401, or what
/// ``NetworkOptions/credentialRejection`` says), enforces one overall deadline, decodes
/// the response off the caller's actor, and logs every step with secrets redacted.
public final class NetworkService: Networking {
  /// Settings (base URL, deadline, retry policy, User-Agent).
  package let options: NetworkOptions
  private let transport: any HTTPTransport
  private let authenticator: (any Authenticator)?
  private let clock: any NetworkClock
  private let decoder: JSONDecoder
  /// Tells this service's decoded values from another's in a shared ``HTTPCache``; never
  /// reused within a process (an object's address can be).
  private let decodingIdentity = NetworkService.identities.add(1)
  private static let identities = AtomicInt(0)
  private let builder: RequestBuilder
  private let logger: Log
  private let redactor: Redactor

  /// - Parameter options: Base URL, deadline, retry policy, User-Agent.
  /// - Parameter transport: The HTTP seam (default: a `URLSessionTransport`).
  /// - Parameter authenticator: Supplies and renews bearer tokens for `requiresAuth` endpoints.
  /// - Parameter clock: Backoff sleeps and deadline accounting (tests inject a manual clock).
  /// - Parameter decoder: Decodes responses.
  /// - Parameter encoder: Encodes bodies.
  /// - Parameter logger: Where to log (default: the `networking` category).
  public init(
    options: NetworkOptions, transport: any HTTPTransport = URLSessionTransport(),
    authenticator: (any Authenticator)? = nil, clock: any NetworkClock = SystemNetworkClock(),
    decoder: JSONDecoder = JSONDecoder(), encoder: JSONEncoder = JSONEncoder(),
    logger: Log = Log(category: "networking")
  ) {
    self.options = options
    self.transport = transport
    self.authenticator = authenticator
    self.clock = clock
    self.decoder = decoder
    self.builder = RequestBuilder(options: options, encoder: encoder)
    self.logger = logger
    self.redactor = Redactor(revealsPersonalData: options.revealsPersonalData)
  }

  // MARK: Sending

  /// Sends `endpoint` and decodes its response.
  ///
  /// A nonisolated async function: it runs on the global executor, so decoding a large body
  /// never happens on the caller's actor (the main actor, for a view model).
  /// - Throws: ``NetworkError``; `CancellationError` when the task is cancelled (no
  ///   further attempt is made).
  public func send<E: Endpoint>(_ endpoint: E) async throws -> E.Response {
    try await fetch(endpoint).value
  }

  /// Sends `endpoint` and says where its answer came from: the network, the HTTP cache
  /// (``NetworkOptions/cache``), a revalidation, or a stale answer standing in because the
  /// server could not be reached.
  /// - Throws: as ``send(_:)``.
  public func fetch<E: Endpoint>(_ endpoint: E) async throws -> Fetched<E.Response> {
    let label = Self.label(endpoint.method, endpoint.path)
    do {
      return try await send(endpoint, label: label)
    } catch let error as NetworkError {
      throw error.labelled(label)
    }
  }

  /// One call's state across its attempts.
  private struct Call {
    let label: String
    let method: HTTPMethod
    /// On ``clock``'s time line.
    let deadline: Duration
    let policy: RetryPolicy
    let maxResponseSize: Int
    var request: URLRequest
    /// The bearer token the request carries, if any.
    var token: String?
    /// Whose answer this is when it carries a token (``Authenticator/account()``): the HTTP
    /// cache keeps it for that account alone.
    var account: String?
    /// The account's session mark in the cache when the request went out
    /// (``HTTPCache/epoch(for:)``): an answer arriving after it changed is not the account's.
    var epoch: String?
    var attempt = 0
    var retries = 0
    var renewed = false
    /// Why the next attempt is made (for its record).
    var retryReason: String?

    mutating func carry(_ token: String) {
      self.token = token
      request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    }
  }

  /// What the attempt's outcome leads to.
  private enum Next {
    case done(Data, status: Int)
    case fail(NetworkError)
    case retry(RequestRecord.Retry, after: Duration)
    /// The token was renewed: replay at once.
    case replay
  }

  /// - Parameter policy: The endpoint's cache policy, unless given (a background
  ///   revalidation).
  private func send<E: Endpoint>(_ endpoint: E, label: String, policy: CachePolicy? = nil)
    async throws -> Fetched<E.Response>
  {
    let policy = policy ?? endpoint.cachePolicy
    var call = try await authorise(endpoint, label: label)
    // A token makes the answer one user's: kept for their account, or not at all.
    let cacheable = (call.token == nil || call.account != nil) && policy != .bypass
    let cache = cacheable ? options.cache : nil
    if let cache, let account = call.account { call.epoch = cache.epoch(for: account) }
    let stored = cache?.lookUp(call.request, account: call.account)
    if let cache, let stored, policy == .useCache {
      let now = cache.currentDate
      let age = Int(stored.age(at: now))
      if stored.isFresh(at: now) {
        recordHit(stored, source: .cache(age: age), of: call)
        return Fetched(value: try decode(E.Response.self, stored), source: .cache(age: age))
      }
      if stored.canServeWhileRevalidating(at: now), let url = call.request.url {
        // RFC 5861: the stored answer now, a revalidation behind it for the next read.
        let value = try decode(E.Response.self, stored)
        recordHit(stored, source: .stale(age: age), of: call)
        revalidateInBackground(
          endpoint, label: label, key: HTTPCache.key(url, account: call.account), in: cache)
        return Fetched(value: value, source: .stale(age: age))
      }
    }
    if let stored {
      if let etag = stored.etag { call.request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
      if let modified = stored.lastModified {
        call.request.setValue(modified, forHTTPHeaderField: "If-Modified-Since")
      }
    }
    let requestTime = cache?.currentDate ?? Date()
    while true {
      let started = ContinuousClock.now
      let why = call.retryReason
      let outcome = try await attempt(&call)
      if let cache, var entry = stored, case .success(let (_, response)) = outcome,
        response.statusCode == 304
      {
        try await checkSession(of: call)
        entry.refresh(with: response, requestTime: requestTime, responseTime: cache.currentDate)
        cache.store(entry, for: call.request, account: call.account, epoch: call.epoch)
        record(
          outcome, .done(entry.body, status: 304), of: call, retryReason: why,
          duration: ContinuousClock.now - started, cache: ResponseSource.revalidated.label)
        return Fetched(value: try decode(E.Response.self, entry), source: .revalidated)
      }
      let next = try await decide(outcome, &call)
      let standIn = cache.flatMap { cache in
        stored.flatMap { standsIn($0, for: next, in: cache) }
      }
      record(
        outcome, next, of: call, retryReason: why, duration: ContinuousClock.now - started,
        cache: cache.map { _ in standIn == nil ? ResponseSource.network.label : "stale" },
        cacheAge: standIn?.age)
      if let standIn {
        try await checkSession(of: call)
        logger.info("\(label): answered from the cache (\(standIn.age)s old) after a failure")
        return Fetched(
          value: try decode(E.Response.self, standIn.response), source: .stale(age: standIn.age))
      }
      switch next {
      case .done(let data, let status):
        if call.method == .get { try await checkSession(of: call) }
        if case .success(let (_, response)) = outcome {
          keep(data, response, for: call, requestTime: requestTime, in: cache)
        }
        return Fetched(value: try decode(E.Response.self, data, status: status), source: .network)
      case .fail(let error): throw error
      case .retry(_, let delay): try await clock.sleep(for: delay)
      case .replay: continue
      }
    }
  }

  // MARK: The HTTP cache

  /// Revalidates the answer stored under `key` in the background, one revalidation at a time
  /// per answer; the caller has the stale answer already, so a failure is only logged.
  private func revalidateInBackground<E: Endpoint>(
    _ endpoint: E, label: String, key: String, in cache: HTTPCache
  ) {
    guard cache.beginRevalidation(key) else { return }
    Task.detached { [self] in
      defer { cache.endRevalidation(key) }
      do {
        _ = try await send(endpoint, label: label, policy: .revalidate)
      } catch {
        logger.debug("\(label): the background revalidation failed: \(error)")
      }
    }
  }

  /// A stored answer that may stand in for a call that failed for good because the server
  /// could not be reached or failed (5xx), with its age in seconds.
  private func standsIn(_ stored: CachedResponse, for next: Next, in cache: HTTPCache) -> (
    response: CachedResponse, age: Int
  )? {
    guard case .fail(let error) = next else { return nil }
    switch error.kind {
    case .transport, .offline, .deadlineExceeded, .invalidResponse: break
    case .server(let status, _) where status >= 500: break
    default: return nil
    }
    let now = cache.currentDate
    guard stored.canStandIn(at: now, maxStale: options.cache?.maxStale.inSeconds ?? 0) else {
      return nil
    }
    return (stored, Int(stored.age(at: now)))
  }

  /// After a success: a GET's answer is kept when it may be; a change (POST, PUT, PATCH,
  /// DELETE) drops what was kept for its URL and for the `Location` / `Content-Location` it
  /// names on the same origin (RFC 9111 §4.4) — with or without a cache for this call, since
  /// the shared cache may hold a public answer for that URL.
  private func keep(
    _ data: Data, _ response: HTTPURLResponse, for call: Call, requestTime: Date,
    in cache: HTTPCache?
  ) {
    let request = call.request
    let method = request.httpMethod ?? "GET"
    if method == "GET" {
      guard let cache else { return }
      cache.store(
        CachedResponse(
          data, response, variedValue: { cache.variedValue($0, of: request) },
          requestTime: requestTime, responseTime: cache.currentDate),
        for: request, account: call.account, epoch: call.epoch)
      return
    }
    guard method != "HEAD", method != "OPTIONS", let shared = options.cache,
      let url = request.url
    else { return }
    shared.invalidate(url, account: call.account)
    for header in ["Location", "Content-Location"] {
      guard let value = response.value(forHTTPHeaderField: header),
        let target = URL(string: value, relativeTo: url)?.absoluteURL,
        let origin = Origin(url), origin.contains(target)
      else { continue }
      shared.invalidate(target, account: call.account)
    }
  }

  /// The record of an answer the cache gave without a request (attempt 0).
  private func recordHit(_ stored: CachedResponse, source: ResponseSource, of call: Call) {
    guard logger.isEnabled(.debug) || options.onRequestRecord != nil else { return }
    var record = RequestRecord(
      request: call.label, method: "GET",
      url: call.request.url.map(redactor.redact(url:)) ?? "?", status: stored.status,
      durationMilliseconds: 0, bytesSent: 0, bytesReceived: 0, attempt: 0)
    record.cache = source.label
    if case .cache(let age) = source { record.cacheAge = age }
    if case .stale(let age) = source { record.cacheAge = age }
    options.onRequestRecord?(record)
    logger.log(.debug, "← \(stored.status) \(call.label) from the cache", fields: record.fields)
  }

  // MARK: Steps

  /// Ends a read whose session ended while its answer was on the way (signed out, here or in
  /// another process, or another account signed in): its answer is neither kept nor returned
  /// as that account's.
  private func checkSession(of call: Call) async throws {
    guard let account = call.account, let authenticator else { return }
    let ended =
      await authenticator.account() != account
      || call.epoch.map { $0 != options.cache?.epoch(for: account) } ?? false
    guard ended else { return }
    logger.info("\(call.label): the session ended while the answer was on its way; dropped")
    throw NetworkError.unauthorized(.sessionEnded)
  }

  /// Builds the request and attaches the bearer token when the endpoint needs one and its
  /// origin issued the session (a token never goes to another origin). Work done for an owner
  /// (`DataOwner.acting`) is sent only while that owner is the one signed in, and the
  /// device's never carries a token.
  private func authorise<E: Endpoint>(_ endpoint: E, label: String) async throws -> Call {
    var policy = endpoint.retryPolicy ?? options.retryPolicy
    if endpoint.retryPolicy == nil, endpoint.idempotencyKey != nil {
      // A key makes a repeat harmless: the service's policy, POST and PATCH included.
      policy.retryableMethods.formUnion([.post, .patch])
    }
    var call = Call(
      label: label, method: endpoint.method,
      deadline: clock.now() + (endpoint.deadline ?? options.deadline), policy: policy,
      maxResponseSize: endpoint.maxResponseSize ?? options.maxResponseSize,
      request: try builder.build(endpoint))
    // Work for an owner goes out only in that owner's session; the device's carries no token.
    let acting = DataOwner.acting
    let before = acting != nil || endpoint.requiresAuth ? await authenticator?.account() : nil
    if let acting,
      DataOwner(account: before) != acting || (acting == .device && endpoint.requiresAuth)
    {
      logger.info("\(label): made for \(acting), whose session this is not; not sent")
      throw NetworkError.unauthorized(.sessionEnded)
    }
    guard endpoint.requiresAuth else { return call }
    if let authenticator, let url = call.request.url, !authenticator.origin.contains(url) {
      logger.notice(
        "\(label): \(Origin(url)?.description ?? "that URL") is not \(authenticator.origin), which issued the session; sending it without credentials"
      )
      return call
    }
    guard let authenticator, let token = try await authenticator.accessToken() else {
      logger.info("\(label): not signed in; request not sent")
      throw NetworkError.unauthorized(.notSignedIn)
    }
    call.carry(token)
    call.account = await authenticator.account()
    // The token and the account must be one session's: a sign-in or sign-out between the reads
    // would file one user's answer under another's name.
    guard call.account == before else { throw NetworkError.unauthorized(.sessionEnded) }
    return call
  }

  /// One exchange, unless the deadline has passed or there is no network route.
  private func attempt(_ call: inout Call) async throws -> Result<
    (Data, HTTPURLResponse), NetworkError
  > {
    try Task.checkCancellation()
    call.attempt += 1
    let remaining = call.deadline - clock.now()
    guard remaining > .zero else {
      logger.info("\(call.label): overall deadline exceeded")
      return .failure(NetworkError(.deadlineExceeded))
    }
    if let connectivity = options.connectivity, !connectivity.isOnline,
      let url = call.request.url, Origin(url)?.isLoopback != true
    {
      logger.info("\(call.label): offline (no network route); not sent")
      return .failure(NetworkError(.offline))
    }
    let outcome = await exchange(call, within: remaining)
    try Task.checkCancellation()
    return outcome
  }

  /// Judges an attempt: success, a rejected token to renew, a retry, or the final failure.
  private func decide(_ outcome: Result<(Data, HTTPURLResponse), NetworkError>, _ call: inout Call)
    async throws -> Next
  {
    let data: Data
    let response: HTTPURLResponse
    switch outcome {
    case .failure(let error): return retry(after: error, retryAfter: nil, &call)
    case .success(let exchange): (data, response) = exchange
    }
    let status = response.statusCode
    if (200..<300).contains(status) { return .done(data, status: status) }
    if let elsewhere = Self.redirectedOrigin(call.request, response) {
      // Only the session's own origin can reject its token; nothing is retried there.
      logger.debug("\(call.label) → \(status) from \(elsewhere) after a redirect")
      return .fail(NetworkError(.answeredElsewhere(status: status, origin: elsewhere.description)))
    }
    if let token = call.token, options.credentialRejection.rejects(status: status, body: data) {
      return try await renew(token, status: status, &call)
    }
    if status == 401 { return .fail(.unauthorized(.signInRequired)) }
    let failure = NetworkError.server(
      status: status, body: data,
      serverMessage: options.serverMessageFormat.message(status: status, body: data))
    let retryAfter =
      status == 429 || status == 503
      ? response.value(forHTTPHeaderField: "Retry-After").flatMap {
        RetryPolicy.parseRetryAfter($0)
      } : nil
    return retry(after: failure, retryAfter: retryAfter, &call)
  }

  /// A retry when the policy allows one and it fits before the deadline; else the failure.
  private func retry(after failure: NetworkError, retryAfter: Duration?, _ call: inout Call)
    -> Next
  {
    guard call.retries < call.policy.maxRetries,
      call.policy.shouldRetry(failure, method: call.method)
    else {
      logger.debug("\(call.label) failed: \(failure)")
      return .fail(failure)
    }
    call.retries += 1
    let delay = call.policy.delay(forRetry: call.retries, retryAfter: retryAfter)
    guard clock.now() + delay < call.deadline else {
      logger.info("\(call.label): no time left for retry \(call.retries) before the deadline")
      return .fail(failure)
    }
    let reason = Self.reason(failure)
    call.retryReason = reason
    logger.info(
      "retry \(call.retries)/\(call.policy.maxRetries) in \(delay.shortDescription): \(call.label) → \(reason)"
    )
    let next = RequestRecord.Retry(
      number: call.retries, maxRetries: call.policy.maxRetries,
      delayMilliseconds: delay.inSeconds * 1000, reason: reason)
    return .retry(next, after: delay)
  }

  /// Renews a rejected token once and replays; a renewed token rejected too ends the session.
  private func renew(_ rejected: String, status: Int, _ call: inout Call) async throws -> Next {
    guard let authenticator else { return .fail(.unauthorized(.signInRequired)) }
    guard !call.renewed else {
      logger.info(
        "\(call.label) → \(status): the renewed token was rejected too; ending the session")
      await authenticator.rejected(renewedToken: rejected)
      return .fail(.unauthorized(.rejectedAfterRefresh))
    }
    call.renewed = true
    logger.info("\(call.label) → \(status): the access token was rejected; renewing it")
    do {
      call.carry(try await authenticator.refresh(rejectedToken: rejected))
    } catch let error as NetworkError where RetryPolicy.isTransient(error) {
      return .fail(error)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      return .fail(.unauthorized(.refreshRejected))
    }
    call.retryReason = "token renewed after \(status)"
    return .replay
  }

  /// The origin that answered, when a redirect took the request away from its own.
  private static func redirectedOrigin(_ request: URLRequest, _ response: HTTPURLResponse)
    -> Origin?
  {
    guard let sent = request.url.flatMap(Origin.init), let answered = response.url,
      !sent.contains(answered)
    else { return nil }
    return Origin(answered)
  }

  /// One attempt through the middleware chain to the transport, its failures as
  /// ``NetworkError``s. FoundationNetworking has no overall timeout, so the transport enforces
  /// the time left (``TransferLimits``); that is real time even when a test injects a manual
  /// clock: it guards real I/O.
  private func exchange(_ call: Call, within remaining: Duration) async -> Result<
    (Data, HTTPURLResponse), NetworkError
  > {
    trace(call.request, attempt: call.attempt)
    let limits = TransferLimits(deadline: remaining, maxResponseSize: call.maxResponseSize)
    let transport = transport
    var next: HTTPMiddlewareNext = { request in try await transport.send(request, limits: limits) }
    let described = RequestAttempt(label: call.label, number: call.attempt)
    for middleware in options.middleware.reversed() {
      let inner = next
      next = { request in try await middleware.intercept(request, attempt: described, next: inner) }
    }
    let started = ContinuousClock.now
    do {
      let (data, response) = try await next(call.request)
      trace(response, data)
      return .success((data, response))
    } catch {
      let timedOutOverall = ContinuousClock.now - started >= remaining
      return .failure(failure(error, limits: limits, overall: timedOutOverall, label: call.label))
    }
  }

  /// What a thrown error means for the caller. A timeout at the transport's deadline is the
  /// call's deadline; one before it is the request's own idle timeout (retryable).
  private func failure(_ error: any Error, limits: TransferLimits, overall: Bool, label: String)
    -> NetworkError
  {
    switch error {
    case let error as NetworkError: return error
    case let error as URLError:
      switch error.code {
      case .badServerResponse: return NetworkError(.invalidResponse)
      case .dataLengthExceedsMaximum:
        logger.info(
          "\(label): response over the \(limits.maxResponseSize)-byte limit; transfer stopped")
        return NetworkError(.responseTooLarge(limit: limits.maxResponseSize))
      case .timedOut where overall:
        logger.info("\(label): overall deadline exceeded")
        return NetworkError(.deadlineExceeded)
      case .cancelled where Task.isCancelled: return .transport(URLError(.cancelled))
      default: return .transport(error)
      }
    case is CancellationError: return .transport(URLError(.cancelled))
    default: return .transport(URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error]))
    }
  }

  private func trace(_ request: URLRequest, attempt: Int) {
    if logger.isEnabled(.debug) {
      logger.debug(
        "→ \(request.httpMethod ?? "GET") \(request.url.map(redactor.redact(url:)) ?? "?") (attempt \(attempt))"
      )
    }
    guard logger.isEnabled(.trace) else { return }
    logger.trace(
      "  request headers: \(redactor.redact(headers: request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key })"
    )
    if let body = request.httpBody {
      logger.trace("  request body: \(redactor.redact(body: body))")
    }
  }

  private func trace(_ response: HTTPURLResponse, _ data: Data) {
    guard logger.isEnabled(.trace) else { return }
    let headers = response.allHeaderFields.reduce(into: [String: String]()) {
      $0[String(describing: $1.key)] = String(describing: $1.value)
    }
    logger.trace(
      "  response headers: \(redactor.redact(headers: headers).sorted { $0.key < $1.key })")
    logger.trace("  response body: \(redactor.redact(body: data))")
  }

  /// Emits the attempt's ``RequestRecord`` once its outcome is decided: to
  /// ``NetworkOptions/onRequestRecord``, and as the fields of the `networking` debug line.
  private func record(
    _ outcome: Result<(Data, HTTPURLResponse), NetworkError>, _ next: Next, of call: Call,
    retryReason: String?, duration: Duration, cache: String? = nil, cacheAge: Int? = nil
  ) {
    let logs = logger.isEnabled(.debug)
    guard logs || options.onRequestRecord != nil else { return }
    let request = call.request
    var record = RequestRecord(
      request: call.label, method: request.httpMethod ?? "GET",
      url: request.url.map(redactor.redact(url:)) ?? "?", status: nil,
      durationMilliseconds: duration.inSeconds * 1000, bytesSent: request.httpBody?.count ?? 0,
      bytesReceived: 0, attempt: call.attempt,
      retryReason: retryReason)
    switch outcome {
    case .success(let (data, response)):
      record.status = response.statusCode
      record.bytesReceived = data.count
    case .failure(let error):
      record.error = Self.reason(error)
    }
    if case .retry(let retry, _) = next { record.retry = retry }
    (record.cache, record.cacheAge) = (cache, cacheAge)
    options.onRequestRecord?(record)
    if logs {
      let outcomeText = record.status.map(String.init) ?? "failed (\(record.error ?? "?"))"
      logger.log(
        .debug,
        "← \(outcomeText) \(call.label) in \(duration.shortDescription), \(record.bytesReceived) bytes",
        fields: record.fields)
    }
  }

  /// A stored answer's value: decoded once per answer, service and type (the value is
  /// `Sendable`, so sharing it among readers is safe).
  private func decode<Response: Decodable & Sendable>(
    _ type: Response.Type, _ stored: CachedResponse
  ) throws -> Response {
    if let value = stored.decoded.value(type, decoder: decodingIdentity) { return value }
    let value = try decode(type, stored.body, status: stored.status)
    stored.decoded.keep(value, decoder: decodingIdentity)
    return value
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
    if RequestBuilder.isAbsolute(withoutQuery) {
      return
        "\(method) \(URLComponents(string: String(withoutQuery))?.path ?? String(withoutQuery))"
    }
    return "\(method) /" + withoutQuery.drop { $0 == "/" }
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
