import Foundation
import Strata
import StrataConcurrency
import StrataSandbox

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// `--events`: 1,000,000 small server-sent events read through `NetworkService.stream` as
/// events, against the same answer read as raw pieces (`Data`) on the same transport — the
/// cost of splitting lines and making events — and how much the resident peak grew while the
/// events were read (flat: the stream holds a piece at a time).
enum EventBenchmarks {
  static let count = ProcessInfo.processInfo.environment["EVENTS"].flatMap { Int($0) } ?? 1_000_000

  static func run() async throws -> [BenchmarkResult] {
    let server = try EventServer(count: count)
    defer { server.stop() }
    let network = NetworkService(
      options: NetworkOptions(baseURL: server.baseURL, retryPolicy: .none),
      transport: URLSessionTransport())
    var (events, chunks): ([Double], [Double]) = ([], [])
    var growth = 0
    // Five rounds, the two arms alternating, medians compared: the server shares the cores.
    for _ in 0..<5 {
      let before = Measure.resetPeakResident()
      var start = ContinuousClock.now
      var seen = 0
      // An event stream reconnects when its answer ends: the reader stops at the last event.
      for try await _ in network.stream(Request<Data>(path: "events"), as: .events()) {
        seen += 1
        if seen == count { break }
      }
      events.append(Measure.nanoseconds(ContinuousClock.now - start) / 1e9)
      growth = max(growth, Measure.peakResidentKilobytes() - before)
      guard seen == count else { throw URLError(.cannotParseResponse) }
      start = ContinuousClock.now
      var bytes = 0
      for try await piece in network.stream(Request<Data>(path: "events"), as: .bytes) {
        bytes += piece.count
      }
      chunks.append(Measure.nanoseconds(ContinuousClock.now - start) / 1e9)
    }
    let ratio = Measure.median(chunks) / Measure.median(events)
    let rate = Double(count) / Measure.median(events)
    return [
      BenchmarkResult(
        name: "stream 10^6 events",
        compares:
          "throughput, events / raw pieces of the same answer on the same transport (\(String(format: "%.0f", rate)) events/s)",
        value: ratio, unit: "×", target: "≥ 0.9"),
      BenchmarkResult(
        name: "stream 10^6 events: peak memory growth",
        compares: "resident peak after / before reading them", value: Double(growth) / 1024,
        unit: "MB", target: "≤ 20 MB"),
      try await jsonLinesExport(),
    ]
  }

  /// 30 MB of JSON lines with `Content-Length`, read as values: the limit is per line, and
  /// the body is never held whole (resident growth against the body's size).
  static func jsonLinesExport() async throws -> BenchmarkResult {
    let size = 30_000_000
    let server = try EventServer(jsonLinesOf: size)
    defer { server.stop() }
    let network = NetworkService(
      options: NetworkOptions(baseURL: server.baseURL, retryPolicy: .none),
      transport: URLSessionTransport())
    struct Row: Decodable, Sendable { let n: Int }
    let before = Measure.resetPeakResident()
    var rows = 0
    for try await _ in network.stream(Request<Data>(path: "export"), as: .jsonLines(Row.self)) {
      rows += 1
    }
    guard rows > 200_000 else { throw URLError(.cannotParseResponse) }
    return BenchmarkResult(
      name: "stream 30 MB of JSON lines with Content-Length: peak memory growth",
      compares: "resident peak after / before reading \(rows) values",
      value: Double(Measure.peakResidentKilobytes() - before) / 1024, unit: "MB",
      target: "≤ 20 MB")
  }
}

/// Answers every request with `count` events (`id: N`, `data: {"n":N}`) in one
/// `text/event-stream` body closed by the connection. The body is made once, before any
/// round, and sent whole: the server shares the two cores with the reader it is measuring,
/// so it must cost as little as it can.
final class EventServer: Sendable {
  private let listener: LoopbackListener

  var baseURL: URL { listener.baseURL }

  convenience init(count: Int) throws {
    var body = Array(
      ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-Content-Type-Options: nosniff\r\n"
        + "Connection: close\r\n\r\n").utf8)
    for number in 1...max(1, count) {
      body += Array("id: \(number)\ndata: {\"n\":\(number)}\n\n".utf8)
    }
    try self.init(answer: body)
  }

  /// Newline-delimited JSON of at least `bytes` bytes, framed by `Content-Length` (nginx's
  /// way for a file): more than the 10 MiB per-line limit, announced up front.
  convenience init(jsonLinesOf bytes: Int) throws {
    var body: [UInt8] = []
    body.reserveCapacity(bytes + 200)
    var number = 0
    while body.count < bytes {
      body += Array("{\"n\":\(number),\"pad\":\"\(String(repeating: "x", count: 100))\"}\n".utf8)
      number += 1
    }
    let head =
      "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nX-Content-Type-Options: nosniff\r\n"
      + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    try self.init(answer: Array(head.utf8) + body)
  }

  init(answer: [UInt8]) throws {
    listener = try LoopbackListener { client in Self.serve(client, answer) }
  }

  func stop() { listener.stop() }

  private static func serve(_ client: Int32, _ answer: [UInt8]) {
    guard LoopbackListener.readHead(client) != nil else { return }
    Socket.send(client, answer)  // writes until all is sent, as fast as the reader reads
  }
}
