import Foundation
import Strata
import StrataTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Benchmarks of the core pieces that need no network: DI, Config, Log.
enum CoreBenchmarks {
  static func run() throws -> [BenchmarkResult] {
    // Logging first, with the secrets a signed-in app holds (two tokens and a password):
    // the config benchmark registers thousands of secret values (its KEY_n keys).
    KnownSecrets.register([
      "eyJhbGciOiJIUzI1NiJ9.eyJpZCI6MSwiaWF0IjoxNzAwMDAwMDAwfQ.c2lnbmF0dXJlLWFjY2Vzcw",
      "eyJhbGciOiJIUzI1NiJ9.eyJpZCI6MSwidHlwIjoicmVmcmVzaCJ9.c2lnbmF0dXJlLXJlZnJlc2g", "emilyspass",
    ])
    return [disabledLog(), enabledLogToCapture(), maskLine(), try configParse()]
  }

  // MARK: Config

  static func configParse() throws -> BenchmarkResult {
    var lines: [String] = []
    for index in 0..<10_000 {
      switch index % 5 {
      case 0: lines.append("KEY_\(index) = value \(index) // comment")
      case 1: lines.append("URL_\(index) = https://example.com/path/\(index)")
      case 2: lines.append("QUOTED_\(index) = \"text with \\\"escapes\\\" and // not a comment\"")
      case 3: lines.append("REF_\(index) = $(KEY_\(index - 3))/suffix")
      default: lines.append("# comment line \(index)")
      }
    }
    let text = lines.joined(separator: "\n")
    let milliseconds = try Measure.milliseconds { blackHole(try Config(parsing: text)) }
    return BenchmarkResult(
      name: "Config parse 10,000 lines",
      compares: "parse + substitution of a generated 10,000-line file", value: milliseconds,
      unit: "ms", target: "≤ 10 ms")
  }

  // MARK: Logging

  static func disabledLog() -> BenchmarkResult {
    Log.levels = LogThresholds(global: .error)
    let logger = Log(category: "bench")
    var value = 0
    let nanoseconds = Measure.nanosecondsPerOperation(iterations: 5_000_000) {
      value &+= 1
      logger.debug("value is \(value) and \(String(repeating: "x", count: value % 7))")
    }
    blackHole(value)
    return BenchmarkResult(
      name: "Log call, level disabled", compares: "Log.debug with interpolation below threshold",
      value: nanoseconds, unit: "ns/op", target: "a few ns")
  }

  static func enabledLogToCapture() -> BenchmarkResult {
    let logger = Log(category: "bench")
    var value = 0
    // The record is built, masked and handed to a sink that keeps the last one: the logging
    // path's own cost, through the set-up an app bootstraps (reset afterwards). A test's scope
    // (`Log.withScope`) reads a task-local first, and a sink that keeps every record adds its
    // storage: both shown beside it.
    let last = LastRecordSink()
    Log.levels = .all
    Log.bootstrap(sink: last)
    let nanoseconds = Measure.nanosecondsPerOperation(iterations: 200_000) {
      value &+= 1
      logger.debug("value is \(value)")
    }
    Log.levels = LogThresholds(global: .critical)
    let scoped = Log.withScope(sink: last, levels: .all) {
      Measure.nanosecondsPerOperation(iterations: 200_000) {
        value &+= 1
        logger.debug("value is \(value)")
      }
    }
    let capture = CapturingLogSink()
    let captured = Log.withScope(sink: capture, levels: .all) {
      Measure.nanosecondsPerOperation(iterations: 20_000) {
        value &+= 1
        logger.debug("value is \(value)")
      }
    }
    return BenchmarkResult(
      name: "Log call, level enabled",
      compares: String(
        format:
          "Log.debug rendered, masked and handed to the bootstrapped sink (keeps the last record); in a test's scope: %.0f ns; into CapturingLogSink (keeps all 20,000): %.0f ns",
        scoped, captured),
      value: nanoseconds, unit: "ns/op", target: "≤ 250 ns")
  }

  /// Keeps the last record it was given, so building it cannot be optimised away.
  private final class LastRecordSink: LogSink, @unchecked Sendable {
    private let lock = NSLock()
    private var last: LogRecord?
    func log(_ record: LogRecord) { lock.withLock { last = record } }
  }
}

extension CoreBenchmarks {
  /// Masking secrets by value in one log line (what every written record and CLI line pays).
  static func maskLine() -> BenchmarkResult {
    let line =
      "→ GET https://api.example/users?limit=30&skip=0 (attempt 1) ← 200 in 3ms, 4211 bytes, user emilys"
    var total = 0
    let nanoseconds = Measure.nanosecondsPerOperation(iterations: 200_000) {
      total &+= KnownSecrets.mask(line).utf8.count
    }
    blackHole(total)
    return .figure(
      "Mask known secrets in a log line",
      "KnownSecrets.mask, 100-byte line, 3 secrets held, no match", nanoseconds)
  }

  struct Item: Decodable, Sendable { let id: Int }
  struct GetItem: Endpoint {
    var request: Request<Item> { Request(path: "items/1") }
  }

  /// What NetworkService adds per call when the transport answers at once.
  static func serviceOverhead() async throws -> BenchmarkResult {
    let service = NetworkService(
      options: NetworkOptions(
        baseURL: URL(string: "https://bench.example") ?? URL(fileURLWithPath: "/")),
      transport: InstantTransport())
    var samples: [Double] = []
    for _ in 0..<7 {
      let start = ContinuousClock.now
      for _ in 0..<20_000 { blackHole(try await service.send(GetItem())) }
      samples.append(Measure.nanoseconds(ContinuousClock.now - start) / 1000 / 20_000)
    }
    return .figure(
      "NetworkService cost per call", "build, send, check, decode; transport answers at once",
      Measure.median(samples), unit: "µs/call")
  }
}

/// Answers every request at once with a tiny JSON body, deadline included: isolates
struct InstantTransport: HTTPTransport {
  static let body = Data(#"{"id":1}"#.utf8)

  func send(_ request: URLRequest, body: HTTPBody?, limits: TransferLimits) async throws -> (
    HTTPURLResponse, HTTPBody
  ) {
    guard let url = request.url,
      let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil)
    else { throw URLError(.badURL) }
    return (response, HTTPBody(Self.body))
  }
}
