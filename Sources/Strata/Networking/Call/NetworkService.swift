import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends ``Endpoint``s over an ``HTTPTransport``: builds the request, adds the bearer token,
/// retries with backoff, refreshes the token once when the server rejects it (401, or what
/// ``NetworkOptions/credentialRejection`` says), enforces one overall deadline, decodes
/// the response off the caller's actor, and logs every step with secrets redacted.
public final class NetworkService: Networking {
  /// Settings (base URL, deadline, retry policy, User-Agent).
  package let options: NetworkOptions
  let transport: any HTTPTransport
  let authenticator: (any Authenticator)?
  let clock: any MonotonicClock
  let decoder: JSONDecoder
  /// Tells this service's decoded values from another's in a shared ``HTTPCache``; never
  /// reused within a process (an object's address can be).
  let decodingIdentity = NetworkService.identities.add(1)
  private static let identities = AtomicInt(0)
  let builder: RequestBuilder
  let logger: Log
  let redactor: Redactor
  /// The reads in flight that identical ones may share.
  let inFlight = InFlightReads()

  /// - Parameter options: Base URL, deadline, retry policy, User-Agent.
  /// - Parameter transport: The HTTP seam (default: a `URLSessionTransport`).
  /// - Parameter authenticator: Supplies and refreshes bearer tokens for `requiresAuth` endpoints.
  /// - Parameter clock: Backoff sleeps and deadline accounting (tests inject a manual clock).
  /// - Parameter decoder: Decodes responses.
  /// - Parameter encoder: Encodes bodies. The default (nil) sorts keys: the same value is the same
  ///   bytes in every process, so a keyed write resent by another run is the request the
  ///   server saw (a server that fingerprints the payload of an `Idempotency-Key` refuses
  ///   other bytes with 422).
  /// - Parameter logger: Where to log (default: the `networking` category).
  public init(
    options: NetworkOptions, transport: any HTTPTransport = URLSessionTransport(),
    authenticator: (any Authenticator)? = nil, clock: any MonotonicClock = SystemMonotonicClock(),
    decoder: JSONDecoder = JSONDecoder(),
    encoder: JSONEncoder? = nil,
    logger: Log = Log(category: "networking")
  ) {
    self.options = options
    self.transport = transport
    self.authenticator = authenticator
    self.clock = clock
    self.decoder = decoder
    let sorted = JSONEncoder()
    sorted.outputFormatting = .sortedKeys
    self.builder = RequestBuilder(options: options, encoder: encoder ?? sorted)
    self.logger = logger
    self.redactor = Redactor(revealsPersonalData: options.revealsPersonalData)
    builder.staging.sweepLeftovers()
  }

  // MARK: Sending

  /// Sends `endpoint` and decodes its answer, saying where it came from: the network, the
  /// HTTP cache (``NetworkOptions/cache``), a revalidation, or a stale answer standing in
  /// because the server could not be reached.
  ///
  /// A nonisolated async function: it runs on the global executor, so decoding a large body
  /// never happens on the caller's actor (the main actor, for a view model).
  /// - Parameter endpoint: What to send, and the type its answer decodes to.
  /// - Parameter progress: Told the bytes of the body as they go, then of the answer's as
  ///   they arrive, on each attempt; never after the call returns.
  /// - Throws: ``NetworkError``; `CancellationError` when the task is cancelled (no
  ///   further attempt is made).
  public func send<E: Endpoint>(
    _ endpoint: E, progress: (@Sendable (TransferProgress) -> Void)?
  ) async throws -> NetworkResponse<E.Response> {
    let request = endpoint.request
    let label = Self.label(request.method, request.path)
    let (gate, report) = ProgressGate.around(progress)
    defer { gate?.close() }
    do {
      return try await send(request, label: label, progress: report)
    } catch let error as NetworkError {
      // The one `error` line of a call that failed for good; its retries were `info`.
      logger.error("\(label) failed: \(error)")
      throw error.labelled(label)
    }
  }

  /// One call's state across its attempts.
  struct Call {
    let label: String
    let method: HTTPMethod
    /// On ``clock``'s time line.
    var deadline: Duration
    /// Set to none once a stream's reader has had bytes of an attempt.
    var policy: RetryPolicy
    let maxResponseSize: Int
    var request: URLRequest
    /// The bearer token the request carries, if any.
    var token: String?
    /// The session the request carries a token of (``Authenticator/session()``): the HTTP
    /// cache keeps its answer for that account alone, and only while it holds.
    var session: SessionMark?
    /// Whose answer this is: the session's owner when it carries a token (the HTTP cache
    /// keeps it for that account alone), else the device's (shared).
    var owner: DataOwner { session?.owner ?? .device }
    /// The account's session mark in the cache when the request went out
    /// (``HTTPCache/epoch(for:)``): an answer arriving after it changed is not the account's.
    var epoch: String?
    var attempt = 0
    var retries = 0
    /// How many times the call started over (``Restart``).
    var restarts = 0
    /// Whether an earlier attempt may have reached the server and done its work — it failed
    /// after it could have been sent (a dropped connection, a timeout, a 5xx) — so an answer
    /// saying the work is already done is the effect of that attempt, not a failure.
    var mayHaveArrived = false
    var refreshed = false
    /// Why the next attempt is made (for its record).
    var retriedBecause: String?
    /// The lifetime the request gives answers without one (``CachePolicy/freshFor(_:)``).
    var heuristicLifetime: TimeInterval?
    /// Where a download's body goes as it arrives (nil: memory).
    var sink: (any ResponseBodySink)?
    /// The file the request's body streams from, read afresh by each attempt.
    var streamed: StreamedBody?
    /// Where the bytes sent and received are told (a download's sink tells its own).
    var progress: ProgressReport?
    /// Whether an identical read in flight may answer it (``Request/coalesces``).
    var coalesces = false
    /// When the current attempt's response head arrived (its time to first byte).
    var head = FirstByteTime()
    /// What the current attempt exchanged, for the observer (nil: none is set).
    var capture: ExchangeCapture?

    /// Asks for the kept answer's representation only (`If-None-Match`, `If-Modified-Since`);
    /// nil: unconditionally.
    mutating func makeConditional(on stored: CachedResponse?) {
      request.setValue(stored?.etag, forHTTPHeaderField: "If-None-Match")
      request.setValue(stored?.lastModified, forHTTPHeaderField: "If-Modified-Since")
    }

    mutating func carry(_ token: String) {
      self.token = token
      request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    }
  }

  /// What the attempt's outcome leads to.
  enum Next {
    case done(Data, HTTPURLResponse)
    case fail(NetworkError)
    case retry(RequestRecord.Retry, after: Duration)
    /// The token was refreshed: replay at once.
    case replay
  }

  /// - Parameter policy: The endpoint's cache policy, unless given (a background
  ///   revalidation).
  func send<Response>(
    _ endpoint: Request<Response>, label: String, policy: CachePolicy? = nil,
    progress: ProgressReport? = nil
  ) async throws -> NetworkResponse<Response> {
    let policy = policy ?? endpoint.cachePolicy
    var (call, cache, stored) = try await prepare(endpoint, label: label, policy: policy)
    call.progress = progress
    if let cache, policy.usesFreshAnswers,
      let answer = cached(&stored, endpoint, policy, label: label, call: call, in: cache)
    {
      return answer
    }
    // After `cached`, which drops a kept answer that no longer decodes: not asked about.
    if let stored { call.makeConditional(on: stored) }
    var delivery = DecodedDelivery<Response>(
      service: self, cache: cache, stored: stored, requestTime: cache?.currentDate ?? Date())
    return try await run(&call, &delivery)
  }

  /// The one attempt loop, under every call: an attempt, what the delivery makes of it first
  /// (an answer, or a restart for a kept copy that cannot be used), the status judged, the
  /// attempt recorded, and then the answer, a stand-in, a retry after its backoff, a replay
  /// after a renewed token, or the failure.
  func run<Delivery: CallDelivery>(_ call: inout Call, _ delivery: inout Delivery)
    async throws -> Delivery.Value
  {
    var restart: Restart?
    while true {
      delivery.prepare(&call, after: restart)
      restart = nil
      let timing = AttemptTiming(started: ContinuousClock.now, retriedBecause: call.retriedBecause)
      let outcome = try await attempt(&call)
      switch try await delivery.inspect(outcome, &call, timing) {
      case .answer(let value): return value
      case .restart(let reason):
        guard call.restarts < Restart.maxRestarts else { throw reason.failure }
        call.restarts += 1
        logger.info("\(call.label): \(reason.description); starting over")
        restart = reason
        continue
      case .judge: break
      }
      let next = try await decide(outcome, &call)
      let standIn = delivery.standIn(for: next, call: call)
      record(
        outcome, next, of: call, retriedBecause: timing.retriedBecause,
        duration: ContinuousClock.now - timing.started, source: delivery.recordSource,
        received: delivery.bytesReceived, elements: delivery.elementsDelivered)
      if let standIn {
        try await checkSession(of: call)
        return standIn
      }
      switch next {
      case .done(let data, let response):
        do {
          return try await delivery.deliver(data, response, call: call)
        } catch let cut as URLError {
          // Fewer bytes than announced: the next attempt goes on, as after a cut.
          guard case .retry(_, let delay) = retry(after: .transport(cut), retryAfter: nil, &call)
          else { throw NetworkError.transport(cut) }
          try await clock.sleep(for: delay)
        }
      case .fail(let error): throw error
      case .retry(_, let delay): try await clock.sleep(for: delay)
      case .replay: continue
      }
    }
  }

  // MARK: Steps

  /// The call, the cache it may use — a token makes the answer one user's: kept for their
  /// account, or not at all — and the answer kept for it (none for `bypass`, whose answer
  /// still replaces what was).
  private func prepare<Response>(
    _ endpoint: Request<Response>, label: String, policy: CachePolicy
  ) async throws -> (Call, HTTPCache?, CachedResponse?) {
    var call = try await authorise(endpoint, label: label)
    call.heuristicLifetime = policy.heuristicLifetime
    let cache = call.token == nil || call.owner != .device ? options.cache : nil
    if let cache, let account = call.owner.account { call.epoch = cache.epoch(for: account) }
    let stored = policy == .bypass ? nil : cache?.lookUp(call.request, owner: call.owner)
    return (call, cache, stored)
  }

  /// One exchange, unless the deadline has passed or there is no network route.
  func attempt(_ call: inout Call) async throws -> Result<
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
    call.head = FirstByteTime()
    call.capture = options.observer.map { ExchangeCapture(limit: $0.bodyLimit) }
    let outcome = await exchange(call, within: remaining)
    try Task.checkCancellation()
    return outcome
  }

  /// Judges an attempt: success, a rejected token to refresh, a retry, or the final failure.
  func decide(_ outcome: Result<(Data, HTTPURLResponse), NetworkError>, _ call: inout Call)
    async throws -> Next
  {
    let data: Data
    let response: HTTPURLResponse
    switch outcome {
    case .failure(let error): return retry(after: error, retryAfter: nil, &call)
    case .success(let exchange): (data, response) = exchange
    }
    let status = response.statusCode
    if (200..<300).contains(status) { return .done(data, response) }
    if call.method == .delete, call.mayHaveArrived, status == 404 || status == 410 {
      // The resource is gone because an earlier attempt of this very call deleted it, its
      // answer lost on the way: the effect happened. Done, with the status that says so.
      logger.info("\(call.label) → \(status) after an attempt that may have arrived: deleted")
      return .done(Data(), response)
    }
    if status == 304 {
      // Not Modified, for a request that named no kept answer: nothing to use.
      return retry(after: NetworkError(.invalidResponse), retryAfter: nil, &call)
    }
    if let elsewhere = Self.redirectedOrigin(call.request, response) {
      // Only the session's own origin can reject its token; nothing is retried there.
      logger.debug("\(call.label) → \(status) from \(elsewhere) after a redirect")
      return .fail(NetworkError(.answeredElsewhere(status: status, origin: elsewhere.description)))
    }
    if let token = call.token, options.credentialRejection.rejects(status: status, body: data) {
      return try await refresh(token, status: status, &call)
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
  func retry(after failure: NetworkError, retryAfter: Duration?, _ call: inout Call)
    -> Next
  {
    guard call.retries < call.policy.maxRetries,
      call.policy.shouldRetry(failure, method: call.method)
    else { return .fail(failure) }
    call.retries += 1
    call.mayHaveArrived = call.mayHaveArrived || failure.mayHaveArrived
    let delay = call.policy.delay(forRetry: call.retries, retryAfter: retryAfter)
    guard clock.now() + delay < call.deadline else {
      logger.info("\(call.label): no time left for retry \(call.retries) before the deadline")
      return .fail(failure)
    }
    let reason = Self.reason(failure)
    call.retriedBecause = reason
    logger.info(
      "retry \(call.retries)/\(call.policy.maxRetries) in \(delay.shortDescription): \(call.label) → \(reason)"
    )
    let next = RequestRecord.Retry(
      number: call.retries, maxRetries: call.policy.maxRetries,
      delayMilliseconds: delay.inSeconds * 1000, reason: reason)
    return .retry(next, after: delay)
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

  /// One attempt through the middleware chain to the transport, its body read into the call's
  /// sink or memory, its failures as ``NetworkError``s. FoundationNetworking has no overall
  /// timeout, so the transport enforces the time left (``TransferLimits``); that is real time
  /// even when a test injects a manual clock: it guards real I/O.
  func exchangeAlone(_ call: Call, within remaining: Duration) async -> Result<
    (Data, HTTPURLResponse), NetworkError
  > {
    trace(call.request, attempt: call.attempt)
    let limits = TransferLimits(deadline: remaining)
    let started = ContinuousClock.now
    do {
      let (request, body) = call.outgoing()
      let (response, answer) = try await chain(call, limits)(request, body)
      call.head.stamp(ContinuousClock.now - started)
      let data = try await answer.read(
        response, into: call.sink, limit: call.maxResponseSize,
        progress: call.sink == nil ? call.progress : nil)
      trace(response, data)
      return .success((data, response))
    } catch {
      let timedOutOverall = ContinuousClock.now - started >= remaining
      return .failure(
        failure(error, limit: call.maxResponseSize, overall: timedOutOverall, label: call.label))
    }
  }

  /// What a thrown error means for the caller. A timeout at the transport's deadline is the
  /// call's deadline; one before it is the request's own idle timeout (retryable).
  private func failure(_ error: any Error, limit: Int, overall: Bool, label: String)
    -> NetworkError
  {
    switch error {
    case let error as NetworkError: return error
    case let error as URLError:
      switch error.code {
      case .badServerResponse: return NetworkError(.invalidResponse)
      case .dataLengthExceedsMaximum:
        logger.info(
          "\(label): response over the \(limit)-byte limit; transfer stopped")
        return NetworkError(.responseTooLarge(limit: limit))
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
}
