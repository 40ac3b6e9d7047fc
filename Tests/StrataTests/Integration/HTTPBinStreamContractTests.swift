import Foundation
import Strata
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `NetworkService.stream` against httpbin (postmanlabs/httpbin, Flask behind gunicorn): a
/// server nobody here wrote, framing its answers its own way — `/stream/N` is JSON lines sent
/// chunked as `application/json`, `/drip` one byte at a time under a `Content-Length`,
/// `/stream-bytes` random bytes in chunks. Runs when `STRATA_HTTPBIN` names one, which CI has
/// not; on a machine with Python, on loopback:
///
///     python3 -m venv .build-httpbin && .build-httpbin/bin/pip install httpbin gunicorn
///     .build-httpbin/bin/gunicorn -b 127.0.0.1:8898 -w 4 httpbin:app &
///     STRATA_HTTPBIN=http://127.0.0.1:8898 make contract-httpbin
private let httpbin = ProcessInfo.processInfo.environment["STRATA_HTTPBIN"].flatMap {
  URL(string: $0)
}

@Suite(
  "Contract: streams against httpbin",
  .enabled(if: httpbin != nil, "STRATA_HTTPBIN names no httpbin"))
struct HTTPBinStreamContractTests {

  /// What every line of `/stream/N` holds (and more, which is ignored).
  struct Streamed: Decodable, Sendable {
    let id: Int
    let url: String
  }

  private func service(idleTimeout: Duration? = nil) throws -> NetworkService {
    NetworkService(
      options: NetworkOptions(
        baseURL: try #require(httpbin), deadline: .seconds(300), idleTimeout: idleTimeout,
        retryPolicy: .none),
      transport: URLSessionTransport())
  }

  private func collect<Element: Sendable>(_ stream: ResponseStream<Element>) async throws
    -> [Element]
  {
    var elements: [Element] = []
    for try await element in stream { elements.append(element) }
    return elements
  }

  @Test func jsonLinesDecodeOneValueEach() async throws {
    let values = try await collect(
      try service().stream(Request<Streamed>(path: "stream/20"), as: .jsonLines(Streamed.self)))
    #expect(values.map(\.id) == Array(0..<20))
    #expect(values.allSatisfy { $0.url.hasSuffix("/stream/20") })
  }

  @Test func jsonLinesReadAsLinesAreEachWholeJSON() async throws {
    let lines = try await collect(
      try service().stream(Request<String>(path: "stream/7"), as: .lines))
    #expect(lines.count == 7)
    for (number, line) in lines.enumerated() {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(object?["id"] as? Int == number, "line \(number) is one whole JSON object")
    }
  }

  /// `/drip` writes a byte every 0.2 s: they are handed over as they come, in more than one
  /// piece (a reader that waited for the whole body would see one), and add up to the body.
  @Test func aDripArrivesPieceByPiece() async throws {
    let pieces = try await collect(
      try service().stream(
        Request<Data>(
          path: "drip", query: ["numbytes": "6", "duration": "1.2", "delay": "0", "code": "200"]
        ), as: .bytes))
    #expect(pieces.count > 1, "a piece per byte written, not the body at the end")
    #expect(Data(pieces.joined()) == Data(repeating: UInt8(ascii: "*"), count: 6))
  }

  /// A body without a line end is one line, read when the body ends.
  @Test func aDripReadAsLinesIsOneLineWithoutAnEnd() async throws {
    let lines = try await collect(
      try service().stream(
        Request<String>(path: "drip", query: ["numbytes": "5", "duration": "0.5", "delay": "0"]),
        as: .lines))
    #expect(lines == ["*****"])
  }

  @Test func randomBytesInChunksArriveWhole() async throws {
    let pieces = try await collect(
      try service().stream(
        Request<Data>(path: "stream-bytes/100000", query: ["chunk_size": "1000", "seed": "7"]),
        as: .bytes))
    #expect(pieces.reduce(0) { $0 + $1.count } == 100_000)
  }

  /// A limit per line, not per body: a line longer than it ends the stream with a sentence.
  @Test func aLineOverTheLimitEndsTheStreamClearly() async throws {
    var request = Request<String>(path: "stream/5")
    request.maxResponseSize = 64  // each of httpbin's lines is a few hundred bytes
    do {
      _ = try await collect(try service().stream(request, as: .lines))
      Issue.record("a 64-byte limit let a longer line through")
    } catch let error as NetworkError {
      guard case .responseTooLarge(let limit) = error.kind else {
        Issue.record("ended with \(error), not the limit")
        return
      }
      #expect(limit == 64)
    }
  }

  /// A server that answers, then sends nothing: the idle timeout ends the stream, never a hang.
  @Test(.timeLimit(.minutes(1)))  // a hang guard only
  func aSilentBodyEndsAtTheIdleTimeout() async throws {
    let stream = try service(idleTimeout: .seconds(1)).stream(
      Request<Data>(path: "drip", query: ["numbytes": "2", "duration": "30", "delay": "0"]),
      as: .bytes)
    do {
      _ = try await collect(stream)
      Issue.record("a body silent for 30 s outlived a 1 s idle timeout")
    } catch let error as NetworkError {
      guard case .transport(let cause) = error.kind else {
        Issue.record("ended with \(error), not a timeout")
        return
      }
      #expect(cause.code == .timedOut)
    }
  }
}
