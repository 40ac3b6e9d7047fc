import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The default transport: one long-lived `URLSession` (per-request sessions crash on Linux),
/// request (idle) timeout 30 s, resource timeout 60 s, and a redirect guard that never
/// forwards `Authorization`, `Proxy-Authorization` or `Cookie` to another origin
/// (FoundationNetworking on Linux would).
///
/// On Linux the request timeout acts as an idle timeout and the resource timeout is ignored;
/// `NetworkService` enforces the overall deadline itself so both platforms behave the same.
public final class URLSessionTransport: HTTPTransport {
  /// Timeouts and connection settings for the session.
  public struct Options: Sendable {
    /// Idle time allowed between bytes.
    public var requestTimeout: TimeInterval
    /// Total time allowed for one exchange (honoured on Apple platforms).
    public var resourceTimeout: TimeInterval
    /// Most simultaneous connections to one host.
    public var maxConnectionsPerHost: Int

    /// Creates options.
    /// - Parameters:
    ///   - requestTimeout: Idle timeout (default 30 s).
    ///   - resourceTimeout: Whole-exchange timeout (default 60 s).
    ///   - maxConnectionsPerHost: Connection limit per host (default 8).
    public init(
      requestTimeout: TimeInterval = 30, resourceTimeout: TimeInterval = 60,
      maxConnectionsPerHost: Int = 8
    ) {
      self.requestTimeout = requestTimeout
      self.resourceTimeout = resourceTimeout
      self.maxConnectionsPerHost = maxConnectionsPerHost
    }
  }

  private let session: URLSession

  /// Creates the transport and its session.
  /// - Parameter options: Timeouts and limits.
  public init(options: Options = Options()) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = options.requestTimeout
    configuration.timeoutIntervalForResource = options.resourceTimeout
    configuration.httpMaximumConnectionsPerHost = options.maxConnectionsPerHost
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.httpShouldSetCookies = false
    #if !canImport(FoundationNetworking)
      configuration.waitsForConnectivity = false
    #endif
    session = URLSession(
      configuration: configuration, delegate: RedirectGuard(), delegateQueue: nil)
  }

  deinit { session.finishTasksAndInvalidate() }

  /// Performs the exchange with the session's own timeouts.
  /// - Parameter request: The request.
  /// - Returns: Body and HTTP response.
  /// - Throws: `URLError`, or `CancellationError` when the task is cancelled.
  public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    try await send(request, deadline: nil)
  }

  /// Performs the exchange, cancelling the underlying `URLSessionDataTask` when `deadline`
  /// passes (FoundationNetworking ignores the resource timeout, so this is what bounds a slow
  /// or dripping response). No extra Swift task is created.
  /// - Parameters:
  ///   - request: The request.
  ///   - deadline: Time allowed for the whole exchange.
  /// - Returns: Body and HTTP response.
  /// - Throws: `URLError(.timedOut)` when time runs out, `URLError`, or `CancellationError`.
  public func send(_ request: URLRequest, deadline: Duration) async throws -> (
    Data, HTTPURLResponse
  ) {
    try await send(request, deadline: Optional(deadline))
  }

  private func send(_ request: URLRequest, deadline: Duration?) async throws -> (
    Data, HTTPURLResponse
  ) {
    let exchange = Exchange()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let task = session.dataTask(with: request) { data, response, error in
          exchange.finish(data: data, response: response, error: error)
        }
        exchange.start(task, continuation: continuation, deadline: deadline)
      }
    } onCancel: {
      exchange.cancel()
    }
  }

  /// Makes both platforms report a connection that closed early the same way. Darwin says
  /// `networkConnectionLost`; FoundationNetworking (curl) says `badServerResponse` ("Empty reply
  /// from server") when nothing came back and `unknown` ("transfer closed with N bytes
  /// remaining to read") when the body was cut short. The original error is kept as the
  /// underlying one.
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

/// One data task's lifecycle. The first of completion, deadline or cancellation resumes the
/// caller, at once: FoundationNetworking reports a cancelled transfer only when curl has torn
/// it down, which under load can be seconds later. Whatever happens after is ignored.
private final class Exchange: @unchecked Sendable {
  typealias Continuation = CheckedContinuation<(Data, HTTPURLResponse), any Error>

  // Every stored property is read and written only while holding `lock`. URLSessionTask's
  // `cancel()` is thread-safe and is called outside it, as is resuming the continuation.
  private let lock = NSLock()
  private var task: URLSessionDataTask?
  private var continuation: Continuation?
  private var timer: UInt64?
  private var cancelled = false

  func start(_ task: URLSessionDataTask, continuation: Continuation, deadline: Duration?) {
    let timer = deadline.map {
      DeadlineWatchdog.shared.schedule(after: $0) { [weak self] in self?.expire() }
    }
    let cancelledAlready = lock.withLock {
      self.task = task
      self.continuation = continuation
      self.timer = timer
      return cancelled
    }
    if cancelledAlready {
      cancel()
    } else {
      task.resume()
    }
  }

  private func expire() { end(with: .failure(URLError(.timedOut))) }

  func cancel() {
    lock.withLock { cancelled = true }
    end(with: .failure(CancellationError()))
  }

  func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
    if let error {
      let urlError = (error as? URLError).map(URLSessionTransport.normalised)
      return end(with: .failure(urlError ?? error), cancelTask: false)
    }
    guard let http = response as? HTTPURLResponse else {
      return end(with: .failure(NetworkError.invalidResponse), cancelTask: false)
    }
    end(with: .success((data ?? Data(), http)), cancelTask: false)
  }

  /// Resumes the caller once; cancels the transfer when it is being abandoned.
  private func end(with result: Result<(Data, HTTPURLResponse), any Error>, cancelTask: Bool = true)
  {
    let (continuation, task, timer) = lock.withLock {
      defer {
        self.continuation = nil
        self.task = nil
        self.timer = nil
      }
      return (self.continuation, self.task, self.timer)
    }
    if let timer { DeadlineWatchdog.shared.cancel(timer) }
    guard let continuation else { return }
    continuation.resume(with: result)
    if cancelTask { task?.cancel() }
  }
}

/// Strips credentials from a redirect that leaves the original origin (scheme, host, port).
final class RedirectGuard: NSObject, URLSessionTaskDelegate, Sendable {
  static let credentialHeaders = ["Authorization", "Proxy-Authorization", "Cookie"]

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(Self.guarded(request, from: task.originalRequest?.url ?? response.url))
  }

  /// The redirected request, without credential headers when its origin differs from `origin`.
  static func guarded(_ request: URLRequest, from origin: URL?) -> URLRequest {
    guard let target = request.url, let origin, !sameOrigin(origin, target) else { return request }
    var stripped = request
    for name in credentialHeaders { stripped.setValue(nil, forHTTPHeaderField: name) }
    return stripped
  }

  static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
    func port(_ url: URL) -> Int? {
      url.port
        ?? (url.scheme?.lowercased() == "https"
          ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
    return a.scheme?.lowercased() == b.scheme?.lowercased()
      && a.host?.lowercased() == b.host?.lowercased()
      && port(a) == port(b)
  }
}
