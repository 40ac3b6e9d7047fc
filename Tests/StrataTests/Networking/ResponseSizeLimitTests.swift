import Foundation
import Strata
import Testing

/// `maxResponseSize` at its exact boundary, through the real URLSession: `limit` bytes are a
/// response, `limit + 1` are `.responseTooLarge` and not retried — whether the server announces
/// the length, sends chunks, or just closes the connection.
@Suite("Response size limit at the boundary (real URLSession)")
struct ResponseSizeLimitTests {
  struct Text: Endpoint {
    var request: Request<String> { Request(path: "text") }
  }

  static let limit = 5_000

  /// A JSON string of exactly `size` bytes.
  static func body(_ size: Int) -> [UInt8] {
    Array(("\"" + String(repeating: "x", count: size - 2) + "\"").utf8)
  }

  static func service(_ server: CannedHTTPServer) -> NetworkService {
    NetworkService(
      options: NetworkOptions(
        baseURL: server.baseURL, deadline: .seconds(300),
        // Would retry anything retryable: a too-large answer must not be.
        retryPolicy: RetryPolicy(maxRetries: 3, baseDelay: .milliseconds(1)),
        maxResponseSize: limit),
      transport: URLSessionTransport())
  }

  @Test(arguments: CannedHTTPServer.Framing.allCases)
  func exactlyTheLimitIsAccepted(_ framing: CannedHTTPServer.Framing) async throws {
    let server = try CannedHTTPServer(
      response: CannedHTTPServer.response(Self.body(Self.limit), framing: framing))
    let text = try await Self.service(server).send(Text()).value
    #expect(text.utf8.count == Self.limit, "the body as text, quotes and all")
    #expect(server.requests == 1)
  }

  @Test(arguments: CannedHTTPServer.Framing.allCases)
  func oneByteOverIsTooLargeAndNotRetried(_ framing: CannedHTTPServer.Framing) async throws {
    let server = try CannedHTTPServer(
      response: CannedHTTPServer.response(Self.body(Self.limit + 1), framing: framing))
    let error = await networkError { _ = try await Self.service(server).send(Text()) }
    guard case .responseTooLarge(let limit) = error?.kind else {
      Issue.record("\(framing): expected .responseTooLarge, got \(String(describing: error))")
      return
    }
    #expect(limit == Self.limit)
    #expect(server.requests == 1, "not retried")
  }
}
