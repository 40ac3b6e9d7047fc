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
      for try await _ in network.stream(Request<ServerSentEvent>(path: "events")) {
        seen += 1
        if seen == count { break }
      }
      events.append(Measure.nanoseconds(ContinuousClock.now - start) / 1e9)
      growth = max(growth, Measure.peakResidentKilobytes() - before)
      guard seen == count else { throw URLError(.cannotParseResponse) }
      start = ContinuousClock.now
      var bytes = 0
      for try await piece in network.stream(Request<Data>(path: "events")) { bytes += piece.count }
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
    ]
  }
}

/// Answers every request with `count` events (`id: N`, `data: {"n":N}`) in one
/// `text/event-stream` body closed by the connection. The body is made once, before any
/// round, and sent whole: the server shares the two cores with the reader it is measuring,
/// so it must cost as little as it can.
final class EventServer: Sendable {
  private let listener: LoopbackListener

  var baseURL: URL { listener.baseURL }

  init(count: Int) throws {
    var body = Array(
      ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-Content-Type-Options: nosniff\r\n"
        + "Connection: close\r\n\r\n").utf8)
    for number in 1...max(1, count) {
      body += Array("id: \(number)\ndata: {\"n\":\(number)}\n\n".utf8)
    }
    let answer = body
    listener = try LoopbackListener { client in Self.serve(client, answer) }
  }

  func stop() { listener.stop() }

  private static func serve(_ client: Int32, _ answer: [UInt8]) {
    guard LoopbackListener.readHead(client) != nil else { return }
    Socket.send(client, answer)  // writes until all is sent, as fast as the reader reads
  }
}
