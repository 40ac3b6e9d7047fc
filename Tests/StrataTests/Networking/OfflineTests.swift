import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

/// A monitor whose stream the test drives.
final class ScriptedMonitor: ConnectivityMonitor {
  let initial: Bool?
  private let stream: AsyncStream<Bool>
  let continuation: AsyncStream<Bool>.Continuation
  init(initial: Bool?) {
    self.initial = initial
    (stream, continuation) = AsyncStream.makeStream(of: Bool.self)
  }
  func updates() -> AsyncStream<Bool> { stream }
  func currentState() -> Bool? { initial }
}

@Suite("Offline: fail at once, send nothing")
struct OfflineTests {
  func service(
    _ transport: MockTransport, _ connectivity: Connectivity, clock: ManualClock = ManualClock(),
    baseURL: String = "https://api.example"
  ) -> NetworkService {
    var options = NetworkOptions(
      baseURL: URL(string: baseURL)!, deadline: .seconds(300),
      retryPolicy: RetryPolicy(maxRetries: 3))
    options.connectivity = connectivity
    return NetworkService(options: options, transport: transport, clock: clock)
  }

  @Test func offlineSendsNothingRetriesNothingAndWaitsForNothing() async {
    let transport = MockTransport.successful(json: userJSON)
    let clock = ManualClock()
    let error = await networkError {
      _ = try await service(transport, Connectivity(isOnline: false), clock: clock).send(GetUser())
    }
    #expect(error == NetworkError(.offline, request: "GET /users/1"))
    #expect(error?.localizedDescription == "GET /users/1: offline: no network route")
    #expect(error.map(RetryPolicy.isTransient) == false)
    #expect(transport.requestCount == 0)
    #expect(clock.sleeps.isEmpty, "no backoff was waited for")
  }

  @Test func thisMachineIsReachableOffline() async throws {
    let transport = MockTransport.successful(json: userJSON)
    for base in ["http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080"] {
      _ = try await service(transport, Connectivity(isOnline: false), baseURL: base).send(
        GetUser())
    }
    #expect(transport.requestCount == 3)
  }

  @Test func goingOfflineDuringABackoffEndsTheRetries() async {
    let connectivity = Connectivity(isOnline: true)
    let transport = MockTransport { request, _ in
      connectivity.set(online: false)  // the route goes while the first attempt is out
      return try MockTransport.response(request, status: 503)
    }
    let error = await networkError {
      _ = try await service(transport, connectivity).send(GetUser())
    }
    #expect(error?.kind == .offline)
    #expect(transport.requestCount == 1)
  }

  @Test func connectivityFollowsItsMonitor() async throws {
    let monitor = ScriptedMonitor(initial: false)
    let connectivity = Connectivity(monitor: monitor)
    #expect(!connectivity.isOnline, "the monitor's current state, before any update")
    monitor.continuation.yield(true)
    try await waitUntil("the monitor's change reaches Connectivity") { connectivity.isOnline }
    monitor.continuation.yield(false)
    try await waitUntil("the monitor's change reaches Connectivity") { !connectivity.isOnline }
    #expect(Connectivity(monitor: ScriptedMonitor(initial: nil)).isOnline, "unknown: online")
  }
}
