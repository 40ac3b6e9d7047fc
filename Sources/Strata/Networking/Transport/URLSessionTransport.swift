import Dispatch
import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The default transport: one long-lived `URLSession` (per-request sessions crash on Linux),
/// backstop timeouts (30 s idle, one day per exchange), a body-size limit enforced while the
/// body streams in, and a redirect guard that never forwards a credential header
/// (`Authorization`, `Cookie`, `X-API-Key`, … and any name you add) to another origin
/// (FoundationNetworking on Linux would).
///
/// On Linux the request timeout acts as an idle timeout and the resource timeout is ignored;
/// `NetworkService` enforces the overall deadline itself so both platforms behave the same.
/// Its delegate events run where FoundationNetworking raises them, so the streamed size check
/// costs nothing measurable over `URLSession.data(for:)` (which buffers the whole body).
public final class URLSessionTransport: HTTPTransport {
  /// Timeouts and connection settings for the session.
  package struct Options: Sendable {
    /// Idle time allowed between bytes, when the request sets none (the service sets each
    /// attempt's `NetworkOptions/idleTimeout` on the request itself).
    package var idleBackstop: TimeInterval
    /// Total time allowed for one exchange (honoured on Apple platforms). A backstop only: the
    /// service's deadline (`DEADLINE`, `NetworkOptions/deadline`) ends an exchange
    /// first, on every platform.
    package var exchangeBackstop: TimeInterval
    /// Most simultaneous connections to one host.
    package var maxConnectionsPerHost: Int
    /// Headers, beyond the ``Redactor``'s secret ones, that never follow a redirect to another
    /// origin (any letter case).
    package var credentialHeaders: Set<String>

    /// Defaults: 30 s idle, one day per exchange, 8 connections per host, no headers of yours.
    package init(
      idleBackstop: TimeInterval = 30, exchangeBackstop: TimeInterval = 24 * 3600,
      maxConnectionsPerHost: Int = 8, credentialHeaders: Set<String> = []
    ) {
      (self.idleBackstop, self.exchangeBackstop) = (idleBackstop, exchangeBackstop)
      (self.maxConnectionsPerHost, self.credentialHeaders) = (
        maxConnectionsPerHost, credentialHeaders
      )
    }
  }

  private let session: URLSession
  private let exchanges: ExchangeTable

  /// A transport with backstop timeouts (30 s idle, one day per exchange: the service enforces
  /// `IDLE_TIMEOUT` and `DEADLINE` itself) and no cookie jar.
  /// - Parameter credentialHeaders: The app's own credential headers (a session header, a
  ///   signature), beyond the ones Strata knows (`Authorization`, `Cookie`, `X-API-Key`, and
  ///   any name with `token`, `secret`, …): never sent on to another origin by a redirect.
  /// - Parameter maxConnectionsPerHost: Most simultaneous connections to one host.
  public convenience init(credentialHeaders: Set<String> = [], maxConnectionsPerHost: Int = 8) {
    self.init(
      options: Options(
        maxConnectionsPerHost: maxConnectionsPerHost, credentialHeaders: credentialHeaders))
  }

  package init(options: Options) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = options.idleBackstop
    configuration.timeoutIntervalForResource = options.exchangeBackstop
    configuration.httpMaximumConnectionsPerHost = options.maxConnectionsPerHost
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    // No cookie jar: servers such as DummyJSON put the tokens in cookies too, and a jar would
    // keep them unmasked and send them after sign-out. Credentials travel only as headers.
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    configuration.httpCookieStorage = nil
    #if !canImport(FoundationNetworking)
      configuration.waitsForConnectivity = false
    #endif
    let exchanges = ExchangeTable()
    self.exchanges = exchanges
    #if canImport(FoundationNetworking)
      let delegateQueue: OperationQueue? = InlineDelegateQueue()
    #else
      let delegateQueue: OperationQueue? = nil
    #endif
    session = URLSession(
      configuration: configuration,
      delegate: SessionDelegate(
        exchanges: exchanges, redirects: RedirectGuard(extraHeaders: options.credentialHeaders)),
      delegateQueue: delegateQueue)
  }

  deinit { session.finishTasksAndInvalidate() }

  /// Sends the request and returns at its response head, the body arriving behind it; the
  /// underlying `URLSessionDataTask` is cancelled when the deadline passes (FoundationNetworking
  /// ignores the resource timeout, so this is what bounds a slow or dripping response) or when
  /// the body's reader leaves. A body from a file goes by an upload task (its length known, so
  /// framed by `Content-Length` — a stream would go chunked on Linux), its progress told as it
  /// goes; a streamed request body is gathered in memory first. A download's file and an
  /// event stream's parser take the answer's pieces on the session's delegate thread as they
  /// arrive, and a body read whole stops at its size limit, so memory stays flat for a body
  /// of any size. No extra Swift task is created.
  /// - Throws: `URLError(.timedOut)`, `URLError`, or `CancellationError`.
  public func send(_ request: URLRequest, body: HTTPBody?, limits: TransferLimits) async throws
    -> (HTTPURLResponse, HTTPBody)
  {
    var request = request
    (request.httpBody, request.httpBodyStream) = (nil, nil)
    var file: URL?
    switch body?.source {
    case .bytes(let bytes): request.httpBody = bytes
    case .file(let url): file = url
    case .pipe, .tapped: request.httpBody = try await body?.collect(upTo: .max)
    case nil: break
    }
    let exchange = Exchange(table: exchanges, requestBody: body)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let task =
          file.map { session.uploadTask(with: request, fromFile: $0) as URLSessionDataTask }
          ?? session.dataTask(with: request)
        exchange.start(task, continuation: continuation, deadline: limits.deadline)
      }
    } onCancel: {
      exchange.cancel()
    }
  }
}

extension URLSessionTransport {
  /// Runs `work` on a new thread: for calls into FoundationNetworking that may wait on its
  /// work queue, made from code that may be running on it.
  static func onThreadOfItsOwn(_ work: @escaping @Sendable () -> Void) {
    let thread = Thread(block: work)
    thread.stackSize = 128 * 1024
    thread.start()
  }

  /// Makes both platforms report a connection that closed early the same way. Darwin says
  /// `networkConnectionLost`; FoundationNetworking (curl) says `badServerResponse` ("Empty reply
  /// from server") when nothing came back and `unknown` ("transfer closed with N bytes remaining to
  /// read") when the body was cut short. The original error is kept as the underlying one.
  static func normalised(_ error: URLError) -> URLError {
    #if canImport(FoundationNetworking)
      let cutShort =
        error.code == .unknown && error.localizedDescription.contains("transfer closed")
      if error.code == .badServerResponse || cutShort {
        var info = error.userInfo
        info[NSUnderlyingErrorKey] = error
        return URLError(.networkConnectionLost, userInfo: info)
      }
    #endif
    return error
  }
}

/// One data task's lifecycle. The first of the response head, a failure, the deadline or
/// cancellation resumes the caller, at once: FoundationNetworking reports a cancelled transfer
/// only when curl has torn it down, which under load can be seconds later. The body then
/// flows into its ``BodyPipe`` until the task completes, the deadline passes or the reader
/// leaves; whatever happens after the end is ignored.
final class Exchange: @unchecked Sendable {
  typealias Continuation = CheckedContinuation<(HTTPURLResponse, HTTPBody), any Error>

  // Every stored `var` is read and written only while holding `lock`. URLSessionTask's
  // `cancel()` is thread-safe and is called outside it, as is resuming the continuation.
  private let lock = NSLock()
  private let table: ExchangeTable
  /// The request's body, told the bytes sent.
  private let requestBody: HTTPBody?
  private let pipe = BodyPipe()
  private var task: URLSessionDataTask?
  /// The caller, until the head (or a failure) arrives.
  private var continuation: Continuation?
  private var timer: UInt64?
  private var cancelled = false
  private var ended = false

  init(table: ExchangeTable, requestBody: HTTPBody?) {
    (self.table, self.requestBody) = (table, requestBody)
  }

  /// Bytes of the request body sent so far, of `expected`.
  func sent(_ done: Int64, of expected: Int64) { requestBody?.didSend(done, of: expected) }

  func start(_ task: URLSessionDataTask, continuation: Continuation, deadline: Duration?) {
    table.insert(self, for: task.taskIdentifier)
    let cancelledAlready = lock.withLock {
      self.task = task
      self.continuation = continuation
      return cancelled
    }
    // Armed only once the continuation is stored, so a deadline that fires at once is not lost.
    let timer = deadline.map {
      DeadlineWatchdog.shared.schedule(after: $0) { [weak self] in self?.expire() }
    }
    let endedAlready = lock.withLock {
      self.timer = timer
      return ended
    }
    if endedAlready, let timer { DeadlineWatchdog.shared.cancel(timer) }
    pipe.onStop { [weak self] in self?.end(with: CancellationError()) }
    if cancelledAlready {
      cancel()
    } else if !endedAlready {
      task.resume()
    }
  }

  private func expire() { end(with: URLError(.timedOut)) }

  /// The caller's task was cancelled while it waited for the head.
  func cancel() {
    let waiting = lock.withLock {
      cancelled = true
      return continuation != nil || task == nil
    }
    if waiting { end(with: CancellationError()) }
  }

  /// The response head arrived: the caller gets it with the body to come (the first head:
  /// a later one, an authentication challenge's, is the same answer).
  func receive(_ response: URLResponse) -> Bool {
    guard let http = response as? HTTPURLResponse else { return true }
    let continuation = lock.withLock {
      defer { self.continuation = nil }
      return self.continuation
    }
    guard let continuation else { return true }
    let length = response.expectedContentLength
    let body = HTTPBody(.pipe(BodyPipe.Reader(pipe)), length: length >= 0 ? length : nil)
    continuation.resume(returning: (http, body))
    return true
  }

  /// A piece of the body arrived: to its reader.
  func receive(_ data: Data) { _ = pipe.push(data) }

  /// Ends the exchange with `response` and the body received so far (an authentication
  /// challenge's failure response; its body has arrived before the challenge).
  func answer(with response: HTTPURLResponse) {
    _ = receive(response)
    finish()
  }

  func complete(_ error: (any Error)?) {
    if let error {
      let urlError = (error as? URLError).map(URLSessionTransport.normalised)
      return end(with: urlError ?? error, cancelTask: false)
    }
    let headless = lock.withLock { continuation != nil }
    if headless { return end(with: URLError(.badServerResponse), cancelTask: false) }
    finish()
  }

  /// The body is whole.
  private func finish() {
    let (timer, task) = lock.withLock {
      defer { (ended, self.timer) = (true, nil) }
      return (ended ? nil : self.timer, self.task)
    }
    if let timer { DeadlineWatchdog.shared.cancel(timer) }
    if let task { table.remove(task.taskIdentifier) }
    pipe.finish()
  }

  /// Fails the caller, or the body's reader, once; cancels the transfer when it is being
  /// abandoned.
  private func end(with error: any Error, cancelTask: Bool = true) {
    let (continuation, task, timer, first) = lock.withLock {
      defer { (self.continuation, self.timer, ended) = (nil, nil, true) }
      return (self.continuation, self.task, self.timer, !ended)
    }
    if let timer { DeadlineWatchdog.shared.cancel(timer) }
    continuation?.resume(throwing: error)
    guard first else { return }
    pipe.finish(error)
    if let task, !cancelTask { table.remove(task.taskIdentifier) }
    // On a thread of its own: this may run on FoundationNetworking's work queue (see
    // `InlineDelegateQueue`), where `cancel()` would wait for itself; a cancel queued on the
    // global pool can wait seconds on a 2-core machine; and `cancel()` itself can block for
    // seconds while curl is busy reading a flood (checked on Linux with Swift 6.3) — which
    // must not hold up the deadline watchdog or the caller.
    if cancelTask, let task { URLSessionTransport.onThreadOfItsOwn { task.cancel() } }
  }
}

/// Feeds each task's events to its ``Exchange`` and guards redirects.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
  let exchanges: ExchangeTable
  let redirects: RedirectGuard

  init(exchanges: ExchangeTable, redirects: RedirectGuard) {
    (self.exchanges, self.redirects) = (exchanges, redirects)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let accepted = exchanges[dataTask.taskIdentifier]?.receive(response) ?? false
    completionHandler(accepted ? .allow : .cancel)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    exchanges[dataTask.taskIdentifier]?.receive(data)
  }

  /// A 401 with `WWW-Authenticate` (Basic, Digest, Bearer, …) comes back to the caller as the
  /// response it is, body included: `NetworkService` decides what to do. FoundationNetworking
  /// asks once the body is in (left unanswered, it waits out the deadline); Darwin asks before
  /// the body, and declining the protection space (never a stored credential) lets both
  /// arrive. Server-trust challenges keep the system's handling.
  func urlSession(
    _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
    completionHandler:
      @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?)
      -> Void
  ) {
    // Only a challenge answering a request (401/407) carries a response; TLS ones do not.
    guard let response = challenge.failureResponse as? HTTPURLResponse,
      let exchange = exchanges[task.taskIdentifier]
    else { return Self.reply { completionHandler(.performDefaultHandling, nil) } }
    #if canImport(FoundationNetworking)
      exchange.answer(with: response)
      Self.reply { completionHandler(.cancelAuthenticationChallenge, nil) }
    #else
      _ = exchange
      completionHandler(.rejectProtectionSpace, nil)
    #endif
  }

  /// Gives a challenge's answer. On Linux this delegate runs on FoundationNetworking's work
  /// queue (`InlineDelegateQueue`), and the answer makes it cancel or suspend the task at
  /// once, which waits on that queue: the answer goes from a thread of its own. On Apple
  /// platforms the delegate queue is the ordinary one, and a TLS challenge per connection
  /// is answered at once.
  private static func reply(_ answer: @escaping @Sendable () -> Void) {
    #if canImport(FoundationNetworking)
      URLSessionTransport.onThreadOfItsOwn(answer)
    #else
      answer()
    #endif
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
    totalBytesSent: Int64, totalBytesExpectedToSend: Int64
  ) {
    exchanges[task.taskIdentifier]?.sent(totalBytesSent, of: totalBytesExpectedToSend)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    let exchange = exchanges[task.taskIdentifier]
    exchanges.remove(task.taskIdentifier)
    exchange?.complete(error)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(redirects.guarded(request, after: task.originalRequest, from: response.url))
  }
}
