import Foundation
import Strata
import StrataSandbox
import StrataTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The HTTP cache: what a fresh hit saves against a GET of the same page from the sandbox,
/// what a 304 saves against a full answer, and that neither a lookup nor the disk grows with
/// the number of answers kept.
enum CacheBenchmarks {
  static func run() async throws -> [BenchmarkResult] {
    try await againstTheSandbox() + (try await atScale()) + (try await inANewProcess())
  }

  /// `strata-demo user 1` answered by a fresh hit, start to exit, with 1,000 and with 100,000
  /// other answers kept (a new process each run: nothing warm but the file system's cache),
  /// and `cache show` at 100,000.
  static func inANewProcess() async throws -> [BenchmarkResult] {
    guard let binary = CLIBenchmarks.binary else { return [] }
    let server = SandboxServer()
    try server.start()
    defer { server.stopAndWait() }
    server.faults.add(.init(path: "/users/1", count: 1_000, action: .cacheControl("max-age=86400")))
    guard let origin = Origin(server.baseURL) else { return [] }
    let budget = 1 << 30
    let api = [
      binary, "--api", server.baseURL.absoluteString, "--set", "HTTP_CACHE_SIZE=\(budget)",
    ]
    var hit: [Int: Double] = [:]
    var (show, uncached) = (Double.nan, Double.nan)
    for entries in [1_000, 100_000] {
      let root = NSTemporaryDirectory() + "strata-bench-process-\(UUID().uuidString)"
      defer { try? FileManager.default.removeItem(atPath: root) }
      let environment = ["XDG_CACHE_HOME": root, "HOME": root]
      let cache = HTTPCache(
        app: "strata-demo", origin: origin, maxBytes: budget, environment: environment)
      let filler = service(cache, at: server.baseURL)
      for index in 0..<entries { _ = try await filler.send(Request<Item>(path: "kept/\(index)")) }
      // The fill's writes are flushed first: their write-back would otherwise be measured.
      sync()
      _ = CLIBenchmarks.median(api + ["user", "1"], status: 0, runs: 1, environment: environment)
      hit[entries] = CLIBenchmarks.median(api + ["user", "1"], status: 0, environment: environment)
      if entries == 100_000 {
        show =
          CLIBenchmarks.median(
            api + ["cache", "show"], status: 0, runs: 3, environment: environment)
          ?? .nan
        uncached =
          CLIBenchmarks.median(
            api + ["--no-cache", "user", "1"], status: 0, environment: environment) ?? .nan
      }
    }
    let (small, large) = (hit[1_000] ?? .nan, hit[100_000] ?? .nan)
    return [
      BenchmarkResult(
        name: "HTTP cache: fresh hit, new process, 100,000 kept / 1,000",
        compares: String(
          format: "strata-demo user 1, start to exit: %.0f ms vs %.0f ms (--no-cache: %.0f ms)",
          large, small, uncached),
        value: large / small, unit: "×", target: "≤ 2×"),
      BenchmarkResult(
        name: "HTTP cache: cache show at 100,000 kept",
        compares: "strata-demo cache show, start to exit (median of 3)", value: show, unit: "ms",
        target: "< 1000"),
    ]
  }

  /// Sequential calls of `body`, in rounds: the median microseconds per call.
  private static func microseconds(
    rounds: Int = 5, calls: Int, _ body: () async throws -> Void
  ) async rethrows -> Double {
    var samples: [Double] = []
    for _ in 0..<rounds {
      let start = ContinuousClock.now
      for _ in 0..<calls { try await body() }
      samples.append(Measure.nanoseconds(ContinuousClock.now - start) / Double(calls) / 1_000)
    }
    return Measure.median(samples)
  }

  private final class Bytes: @unchecked Sendable {
    private let lock = NSLock()
    private var last = 0
    func record(_ record: RequestRecord) { lock.withLock { last = record.bytesReceived } }
    var received: Int { lock.withLock { last } }
  }

  static func againstTheSandbox() async throws -> [BenchmarkResult] {
    let server = SandboxServer()
    try server.start()
    defer { server.stopAndWait() }
    let bytes = Bytes()
    var options = NetworkOptions(baseURL: server.baseURL)
    options.cache = HTTPCache()
    options.observer = CallObserver { bytes.record($0) }
    let service = NetworkService(options: options)
    // The sandbox tags every answer (weak ETag) and, with these faults, says it is fresh.
    for path in ["/users/1", "/users"] {
      server.faults.add(.init(path: path, count: 1, action: .cacheControl("max-age=3600")))
    }
    var user = Request<NetworkBenchmarks.User>(path: "users/1")
    let (userHit, userGet, _) = try await hitAndGet(&user, service, bytes)
    var page = Request<NetworkBenchmarks.UsersPage>(path: "users", query: ["limit": "30"])
    let (pageHit, pageGet, fullBytes) = try await hitAndGet(&page, service, bytes)
    page.cachePolicy = .revalidate
    let revalidation = try await microseconds(calls: 100) { _ = try await service.send(page) }
    let notModifiedBytes = bytes.received
    return [
      BenchmarkResult(
        name: "HTTP cache: GET from the sandbox / fresh hit",
        compares: String(
          format: "one user: %.0f µs a GET vs %.1f µs from the cache, sequential", userGet,
          userHit),
        value: userGet / userHit, unit: "×", target: "≥ 50×"),
      .figure(
        "  the same, a 30-user page",
        String(
          format: "%.0f µs vs %.0f µs: a hit returns the value decoded from the 38 KB once",
          pageGet, pageHit), pageGet / pageHit, unit: "×"),
      BenchmarkResult(
        name: "HTTP cache: 304 revalidation / full GET",
        compares: String(
          format: "the page: %.0f µs vs %.0f µs; body bytes on the wire %d vs %d", revalidation,
          pageGet, notModifiedBytes, fullBytes),
        value: revalidation / pageGet, unit: "×", target: "-"),
    ]
  }

  /// A fresh hit of `request` and a GET of it from the server (µs per call), and the body
  /// bytes the GET received.
  private static func hitAndGet<Value>(
    _ request: inout Request<Value>, _ service: NetworkService, _ bytes: Bytes
  ) async throws -> (hit: Double, get: Double, bytes: Int) {
    let fresh = request
    _ = try await service.send(fresh)
    let hit = try await microseconds(calls: 2_000) { _ = try await service.send(fresh) }
    request.cachePolicy = .bypass
    let bypass = request
    let get = try await microseconds(calls: 100) { _ = try await service.send(bypass) }
    return (hit, get, bytes.received)
  }

  /// A transport that answers every GET at once, fresh for an hour, with a 1 KiB body.
  private static func instantServer() -> MockTransport {
    let body = #"{"id":1,"name":""# + String(repeating: "x", count: 1_000) + #""}"#
    return MockTransport { request, _ in
      try MockTransport.response(
        request, status: 200, body: body,
        headers: ["Cache-Control": "max-age=3600", "ETag": "\"1\""])
    }
  }

  /// Microseconds per GET that misses and is kept (the transport answers at once), with 10
  /// and with 10,000 answers kept before: in memory, and in a cache on disk.
  private static func storeCosts(_ api: URL, _ origin: Origin) async throws -> (
    memory: (small: Double, large: Double), disk: (small: Double, large: Double)
  ) {
    let root = NSTemporaryDirectory() + "strata-bench-stores-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    var costs: [String: Double] = [:]
    for onDisk in [false, true] {
      for entries in [10, 10_000] {
        let environment = ["XDG_CACHE_HOME": root + "/\(onDisk)-\(entries)", "HOME": root]
        let cache =
          onDisk
          ? HTTPCache(
            app: "strata-bench", origin: origin, maxBytes: 64 << 20, environment: environment)
          : HTTPCache(maxBytes: 64 << 20)
        let service = service(cache, at: api)
        for index in 0..<entries {
          _ = try await service.send(Request<Item>(path: "kept/\(index)"))
        }
        var next = 0
        costs["\(onDisk) \(entries)"] = try await microseconds(calls: 400) {
          _ = try await service.send(Request<Item>(path: "new/\(next)"))
          next += 1
        }
      }
    }
    func cost(_ onDisk: Bool, _ entries: Int) -> Double { costs["\(onDisk) \(entries)"] ?? .nan }
    return ((cost(false, 10), cost(false, 10_000)), (cost(true, 10), cost(true, 10_000)))
  }

  private struct Item: Decodable, Sendable {
    let id: Int
  }

  private static func service(_ cache: HTTPCache, at api: URL) -> NetworkService {
    var options = NetworkOptions(baseURL: api)
    options.cache = cache
    return NetworkService(options: options, transport: instantServer())
  }

  private static func atScale() async throws -> [BenchmarkResult] {
    guard let api = URL(string: "https://api.example"), let origin = Origin(api) else { return [] }
    // Hits cycling over 10 and over 10,000 kept answers (memory tier).
    var perHit: [Int: Double] = [:]
    for entries in [10, 10_000] {
      let service = service(HTTPCache(maxBytes: 64 << 20), at: api)
      let requests = (0..<entries).map { Request<Item>(path: "items/\($0)") }
      for request in requests { _ = try await service.send(request) }
      var next = 0
      perHit[entries] = try await microseconds(calls: 20_000) {
        _ = try await service.send(requests[next])
        next = (next + 1) % entries
      }
    }
    let small = perHit[10] ?? 1
    let large = perHit[10_000] ?? 0
    let stores = try await storeCosts(api, origin)

    // 100,000 distinct GETs into a 2 MiB disk budget.
    let root = NSTemporaryDirectory() + "strata-bench-cache-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let budget = 2 << 20
    let environment = ["XDG_CACHE_HOME": root, "HOME": root]
    let disk = HTTPCache(
      app: "strata-bench", origin: origin, maxBytes: budget, environment: environment)
    let diskService = service(disk, at: api)
    let start = ContinuousClock.now
    for index in 0..<100_000 { _ = try await diskService.send(Request<Item>(path: "d/\(index)")) }
    let seconds = Measure.nanoseconds(ContinuousClock.now - start) / 1e9
    // Read back by a new cache, as the next process would find it.
    let onDisk = HTTPCache(
      app: "strata-bench", origin: origin, maxBytes: budget, environment: environment)
    return [
      BenchmarkResult(
        name: "HTTP cache: hit at 10,000 entries / at 10",
        compares: String(format: "%.2f µs vs %.2f µs per hit (memory tier)", large, small),
        value: large / small, unit: "×", target: "≤ 2×"),
      BenchmarkResult(
        name: "HTTP cache: store at 10,000 entries / at 10",
        compares: String(
          format:
            "a miss kept, in memory: %.2f µs vs %.2f µs; on disk as well: %.1f µs vs %.1f µs (%.2f×)",
          stores.memory.large, stores.memory.small, stores.disk.large, stores.disk.small,
          stores.disk.large / stores.disk.small),
        value: stores.memory.large / stores.memory.small, unit: "×", target: "≤ 2×"),
      BenchmarkResult(
        name: "HTTP cache: disk after 100,000 GETs",
        compares: String(
          format: "%d B in %d files on disk, budget %d B (least recently used out); %.1f s",
          onDisk.byteCount, onDisk.count, budget, seconds),
        value: Double(onDisk.byteCount) / Double(budget), unit: "× budget", target: "≤ 1"),
    ]
  }
}
