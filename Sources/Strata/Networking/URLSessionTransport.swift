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

  /// Performs the exchange.
  /// - Parameter request: The request.
  /// - Returns: Body and HTTP response.
  /// - Throws: `URLError`, or `CancellationError` when the task is cancelled.
  public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    let (data, response): (Data, URLResponse)
    do {
      (data, response) = try await session.data(for: request)
    } catch let error as URLError where error.code == .cancelled && Task.isCancelled {
      throw CancellationError()
    } catch let error as URLError {
      throw Self.normalised(error)
    }
    guard let http = response as? HTTPURLResponse else { throw NetworkError.invalidResponse }
    return (data, http)
  }

  /// Makes both platforms report a connection that closed before any response the same way:
  /// FoundationNetworking (curl) says `badServerResponse` ("Empty reply from server") where
  /// Darwin says `networkConnectionLost`. The original error is kept as the underlying one.
  static func normalised(_ error: URLError) -> URLError {
    #if canImport(FoundationNetworking)
      if error.code == .badServerResponse {
        var info = error.userInfo
        info[NSUnderlyingErrorKey] = error
        return URLError(.networkConnectionLost, userInfo: info)
      }
    #endif
    return error
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
