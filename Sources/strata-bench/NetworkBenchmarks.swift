import DemoKitTesting
import Foundation
import Strata
import StrataSandbox
import StrataTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Loopback benchmarks against the embedded sandbox: NetworkService against raw URLSession
/// (interleaved in one run, so both see the same machine), the 401 storm, and memory.
enum NetworkBenchmarks {
  struct User: Decodable, Sendable {
    let id: Int
    let firstName: String
    let lastName: String
    let email: String
  }
  struct UsersPage: Decodable, Sendable {
    let users: [User]
    let total: Int
  }
  struct ListUsers: Endpoint {
    var request: Request<UsersPage> {
      var request = Request<UsersPage>(path: "users")
      request.queryItems = [URLQueryItem(name: "limit", value: "30")]
      // Each its own request, as each raw URLSession arm's is: shared reads would measure
      // how few requests go out, not what a request costs.
      request.coalesces = false
      return request
    }
  }
  struct Me: Endpoint {
    var request: Request<User> {
      var request = Request<User>(path: "auth/me", requiresAuth: true)
      request.coalesces = false
      return request
    }
  }
  /// The service's options without an HTTP cache.
  static func uncached(_ server: SandboxServer) -> NetworkOptions {
    var options = NetworkOptions(baseURL: server.baseURL)
    options.cache = nil
    return options
  }

  /// The three ways of one GET + decode, on `server`: raw URLSession, a session with a data
  /// delegate on FoundationNetworking's queued delegate queue, and NetworkService.
  struct Arms {
    let raw: @Sendable () async throws -> Void
    let streamed: @Sendable () async throws -> Void
    let strata: @Sendable () async throws -> Void
    let service: NetworkService
    var all: [@Sendable () async throws -> Void] { [raw, streamed, strata] }
  }

  static func arms(_ server: SandboxServer) async throws -> Arms? {
    // The baseline session gets the same settings URLSessionTransport uses, so only the
    // layers above the session differ.
    let options = URLSessionTransport.Options()
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = options.idleBackstop
    configuration.timeoutIntervalForResource = options.exchangeBackstop
    configuration.httpMaximumConnectionsPerHost = options.maxConnectionsPerHost
    configuration.urlCache = nil
    let session = URLSession(configuration: configuration)
    let transport = URLSessionTransport(options: options)
    // No HTTP cache: the sandbox tags every answer, and revalidated 304s against raw 200s
    // would not compare the same work.
    let service = NetworkService(options: uncached(server), transport: transport)
    guard let url = URL(string: server.baseURL.absoluteString + "/users?limit=30") else {
      return nil
    }
    let userAgent = service.options.userAgent
    // The same request NetworkService sends: same URL, Accept and User-Agent.
    var request = URLRequest(url: url)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
    let raw: @Sendable () async throws -> Void = { [request] in
      let (data, _) = try await session.data(for: request)
      blackHole(try JSONDecoder().decode(UsersPage.self, from: data))
    }
    // What the transport would cost without its inline delegate queue: a session with a data
    // delegate on FoundationNetworking's default (queued) delegate queue that only collects
    // each body — the per-event hop URLSessionTransport avoids on Linux.
    let collector = BodyCollector()
    let delegated = URLSession(
      configuration: configuration, delegate: collector, delegateQueue: nil)
    let streamed: @Sendable () async throws -> Void = { [request] in
      let data = try await collector.data(delegated.dataTask(with: request))
      blackHole(try JSONDecoder().decode(UsersPage.self, from: data))
    }
    let strata: @Sendable () async throws -> Void = {
      blackHole(try await service.send(ListUsers()))
    }

    // Warm every path (connections, caches) before measuring.
    for _ in 0..<50 {
      try await raw()
      try await streamed()
      try await strata()
    }
    return Arms(raw: raw, streamed: streamed, strata: strata, service: service)
  }

  /// µs per request of each arm over `rounds` interleaved rounds, each arm's place turning
  /// from round to round (raw, delegate, strata; then strata, delegate, raw; …): slow drift of
  /// a shared 2-core machine hits every arm alike.
  static func samples(
    _ arms: Arms, inFlight: Int, perBatch: Int, rounds: Int
  ) async throws -> [[Double]] {
    var samples: [[Double]] = [[], [], []]
    let all = arms.all
    for round in 0..<rounds {
      let turn = round / 2 % all.count
      var order = Array(all.indices[turn...]) + Array(all.indices[..<turn])
      if round % 2 == 1 { order.reverse() }
      for arm in order {
        samples[arm].append(
          try await microsecondsPerRequest(perBatch, inFlight: inFlight, all[arm]))
      }
    }
    return samples
  }

  static func sandbox() throws -> SandboxServer {
    let server = SandboxServer(
      configuration: .init(limits: SandboxLimits(maxConnections: 1024), journalCapacity: 1_000))
    try server.start()
    return server
  }

  static func run() async throws -> [BenchmarkResult] {
    let server = try sandbox()
    defer { server.stopAndWait() }
    guard let arms = try await arms(server) else { return [] }
    let service = arms.service

    var results: [BenchmarkResult] = []
    // The median of the per-round ratios is robust to a noisy round.
    for (label, inFlight, perBatch) in [("sequential", 1, 60), ("32 in flight", 32, 320)] {
      let samples = try await samples(arms, inFlight: inFlight, perBatch: perBatch, rounds: 24)
      let ratios = zip(samples[2], samples[0]).map(/)
      let overDelegate = zip(samples[2], samples[1]).map(/)
      let delegateOverRaw = zip(samples[1], samples[0]).map(/)
      results += [
        .figure(
          "GET+decode raw URLSession, \(label)",
          "baseline: URLSession.data + JSONDecoder, users page", Measure.median(samples[0]),
          unit: "µs/req"),
        .figure(
          "GET+decode NetworkService, \(label)", "NetworkService.send, same request and decode",
          Measure.median(samples[2]), unit: "µs/req"),
        BenchmarkResult(
          name: "NetworkService / URLSession, \(label)",
          compares: "median of 24 paired ratios, interleaved in one run",
          value: Measure.median(ratios), unit: "×",
          target: "≤ 1.02"),
        .figure(
          "  paired ratios, \(label): min", "the spread of the same 24 ratios (max below)",
          ratios.min() ?? .nan, unit: "×"),
        .figure(
          "  paired ratios, \(label): max", "a noisy round shows here, not in the median",
          ratios.max() ?? .nan, unit: "×"),
        .figure(
          "  delegate session / URLSession, \(label)",
          "a data delegate on the default, queued delegate queue (median of 24)",
          Measure.median(delegateOverRaw), unit: "×"),
        .figure(
          "  NetworkService / delegate session, \(label)",
          "Strata's inline delegate queue against it (median of 24)",
          Measure.median(overDelegate), unit: "×"),
      ]
    }
    results += try await refreshStorm(server)
    results.append(try await memory(service, server: server))
    return results
  }

  /// Collects each task's body and hands it over when the task completes; nothing else.
  private final class BodyCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var bodies: [Int: Data] = [:]
    private var waiting: [Int: CheckedContinuation<Data, any Error>] = [:]

    func data(_ task: URLSessionDataTask) async throws -> Data {
      try await withCheckedThrowingContinuation { continuation in
        lock.withLock { waiting[task.taskIdentifier] = continuation }
        task.resume()
      }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
      lock.withLock { bodies[dataTask.taskIdentifier, default: Data()].append(data) }
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
    ) {
      let (continuation, body) = lock.withLock {
        (
          waiting.removeValue(forKey: task.taskIdentifier),
          bodies.removeValue(forKey: task.taskIdentifier)
        )
      }
      if let error {
        continuation?.resume(throwing: error)
      } else {
        continuation?.resume(returning: body ?? Data())
      }
    }
  }

  /// Time per request for `count` requests with `inFlight` concurrent at most.
  static func microsecondsPerRequest(
    _ count: Int, inFlight: Int, _ body: @escaping @Sendable () async throws -> Void
  ) async throws -> Double {
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
      var started = 0
      while started < min(inFlight, count) {
        group.addTask { try await body() }
        started += 1
      }
      while try await group.next() != nil {
        if started < count {
          group.addTask { try await body() }
          started += 1
        }
      }
    }
    return Measure.nanoseconds(ContinuousClock.now - start) / 1000 / Double(count)
  }

  /// 100 concurrent requests whose token the server rejects: how many refreshes, how long.
  static func refreshStorm(_ server: SandboxServer) async throws -> [BenchmarkResult] {
    let transport = URLSessionTransport()
    let plain = NetworkService(
      options: uncached(server), transport: transport)
    let login = try await plain.send(DummyJSONAuth.login()).value
    guard let origin = Origin(server.baseURL) else { throw URLError(.badURL) }
    let good = AuthSession(
      origin: origin,
      store: InMemoryTokenStore(
        Credentials(
          accessToken: login.accessToken, refreshToken: login.refreshToken, origin: origin)))
    let authed = NetworkService(
      options: uncached(server), transport: transport,
      authenticator: good)
    var roundTrips: [Double] = []
    for _ in 0..<50 {
      let start = ContinuousClock.now
      blackHole(try await authed.send(Me()))
      roundTrips.append(Measure.nanoseconds(ContinuousClock.now - start) / 1e6)
    }
    let roundTrip = Measure.median(roundTrips)

    var storms: [Double] = []
    var refreshes: [Int] = []
    for _ in 0..<5 {
      let stale = AuthSession(
        origin: origin,
        store: InMemoryTokenStore(
          Credentials(
            accessToken: "sbx_at_stale", refreshToken: login.refreshToken, origin: origin)),
        refresh: { token in
          let renewed = try await plain.send(DummyJSONAuth.refresh(token)).value
          return Credentials(accessToken: renewed.accessToken, refreshToken: renewed.refreshToken)
        })
      let service = NetworkService(
        options: uncached(server), transport: transport,
        authenticator: stale)
      let before = server.journal.count(method: "POST", path: "/auth/refresh")
      let start = ContinuousClock.now
      try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<100 { group.addTask { blackHole(try await service.send(Me())) } }
        try await group.waitForAll()
      }
      storms.append(Measure.nanoseconds(ContinuousClock.now - start) / 1e6)
      refreshes.append(server.journal.count(method: "POST", path: "/auth/refresh") - before)
    }
    return [
      BenchmarkResult(
        name: "100 concurrent 401s: refresh calls",
        compares: "POST /auth/refresh seen by the server per storm (max of 5)",
        value: Double(refreshes.max() ?? -1), unit: "calls", target: "1"),
      .figure(
        "100 concurrent 401s: total time", "all 100 answered, median of 5 storms",
        Measure.median(storms), unit: "ms"),
      .figure(
        "one authenticated round trip", "GET /auth/me, median of 50 (the storm's yardstick)",
        roundTrip, unit: "ms"),
    ]
  }

  /// Resident set growth over 10,000 requests through NetworkService.
  static func memory(_ service: NetworkService, server: SandboxServer) async throws
    -> BenchmarkResult
  {
    // Settle allocator arenas and the connection pool first; the in-process sandbox's journal
    // is bounded (and reset) so the figure is the client's.
    _ = try await microsecondsPerRequest(2_000, inFlight: 16) {
      blackHole(try await service.send(ListUsers()))
    }
    server.journal.reset()
    let before = residentMegabytes()
    _ = try await microsecondsPerRequest(10_000, inFlight: 16) {
      blackHole(try await service.send(ListUsers()))
    }
    let after = residentMegabytes()
    return BenchmarkResult(
      name: "RSS growth over 10,000 requests",
      compares: "resident set after minus before (NetworkService, 16 in flight)",
      value: after - before, unit: "MB", target: "< 5 MB")
  }

  /// The resident set now (Linux: `/proc/self/statm`); NaN where the platform has no such
  /// figure without a private API (the table then shows it as not measured).
  static func residentMegabytes() -> Double {
    #if os(Linux)
      guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
      else { return .nan }
      return pages * 4096 / 1_048_576
    #else
      return .nan
    #endif
  }
}
