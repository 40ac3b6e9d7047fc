import Foundation
import Strata
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A closure-backed ``HTTPTransport`` that records every request, with presets for the usual cases:
/// ```swift
/// let flaky = MockTransport.statuses([503, 503, 200], body: #"{"id":1}"#)
/// let fine = MockTransport.successful(json: #"{"id":1}"#)
/// let away = MockTransport.failing(URLError(.timedOut))
/// ```
public final class MockTransport: HTTPTransport {
  /// Answers one request: the request and its 1-based index among all requests.
  public typealias Handler = @Sendable (URLRequest, Int) async throws -> (Data, HTTPURLResponse)

  private let handler: Handler
  private let recorded = Lock<[(request: URLRequest, limits: TransferLimits)]>([])

  /// Creates a transport from a handler.
  /// - Parameter handler: Produces each response (or throws a transport error).
  public init(_ handler: @escaping Handler) { self.handler = handler }

  /// Records the request, its body read whole into `httpBody` (so a test reads what was
  /// sent from ``requests``), and answers with the handler's body.
  /// - Throws: What the handler throws, or what reading the request's body throws.
  public func send(_ request: URLRequest, body: HTTPBody?, limits: TransferLimits) async throws
    -> (HTTPURLResponse, HTTPBody)
  {
    var request = request
    if let body { request.httpBody = try await body.collect(upTo: .max) }
    let index = recorded.withLock { [request] sent -> Int in
      sent.append((request, limits))
      return sent.count
    }
    let handler = handler
    return try await limits.enforce { [request] in
      let (data, response) = try await handler(request, index)
      return (response, HTTPBody(data))
    }
  }

  /// Every request sent so far.
  public var requests: [URLRequest] { recorded.withLock { $0.map(\.request) } }

  /// The limits the service gave each request, in order: its deadline.
  public var limits: [TransferLimits] { recorded.withLock { $0.map(\.limits) } }

  /// How many requests were sent.
  public var requestCount: Int { recorded.withLock { $0.count } }

  // MARK: Presets

  /// Always answers `status` with `json`.
  /// - Parameter json: The body.
  /// - Parameter status: The status (default 200).
  /// - Parameter headers: Response headers.
  public static func successful(
    json: String, status: Int = 200, headers: [String: String] = [:]
  ) -> MockTransport {
    MockTransport { request, _ in
      try response(request, status: status, body: json, headers: headers)
    }
  }

  /// Answers with each status in turn (the last one repeats), every body `body`.
  /// - Parameter statuses: Statuses in order.
  /// - Parameter body: The body of every response.
  /// - Parameter headers: Headers of every response.
  public static func statuses(
    _ statuses: [Int], body: String = "{}", headers: [String: String] = [:]
  ) -> MockTransport {
    MockTransport { request, index in
      let status = statuses.isEmpty ? 200 : statuses[min(index, statuses.count) - 1]
      return try response(request, status: status, body: body, headers: headers)
    }
  }

  public static func failing(_ error: URLError) -> MockTransport {
    MockTransport { _, _ in throw error }
  }

  /// Builds a response for `request`.
  /// - Throws: `URLError(.badServerResponse)` if Foundation rejects the status.
  public static func response(
    _ request: URLRequest, status: Int, body: String = "{}", headers: [String: String] = [:]
  ) throws -> (Data, HTTPURLResponse) {
    let url = request.url ?? URL(fileURLWithPath: "/")
    let fields = ["Content-Type": "application/json"].merging(headers) { $1 }
    guard
      let response = HTTPURLResponse(
        url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)
    else { throw URLError(.badServerResponse) }
    return (Data(body.utf8), response)
  }
}
