import DemoKit
import Foundation
import Strata
import StrataConcurrency
import StrataSandbox

/// A sandbox with a clock the test moves, plus a DemoContainer pointed at it.
struct DemoHarness {
  let server: SandboxServer
  let container: DependencyContainer

  final class Clock: Sendable {
    let value = Lock(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { value.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { value.withLock { $0 += seconds } }
  }

  /// Starts a sandbox on `clock`; the client reads the same clock unless `clientUsesClock` is
  /// false (then it lives in real time and learns of expiry from the server's 401s).
  static func start(
    extraConfig: String = "", clock: Clock = Clock(), clientUsesClock: Bool = true
  ) throws -> (DemoHarness, Clock) {
    let server = SandboxServer(configuration: .init(now: { clock.now }))
    try server.start()
    let config = try Config(
      parsing: """
        API = \(server.baseURL.absoluteString)
        TOKEN_STORE = memory
        TOKEN_LIFETIME = 1m
        RETRY_BASE_DELAY = 10ms
        DEADLINE = 300s
        IDLE_TIMEOUT = 300s
        \(extraConfig)
        """, name: "test.xcconfig")
    let now: @Sendable () -> Date
    if clientUsesClock { now = { clock.now } } else { now = { Date() } }
    let container = DemoContainer.make(config: config, now: now)
    return (DemoHarness(server: server, container: container), clock)
  }

  func stop() async { await server.stop() }

  /// Runs `body` with a started harness and stops its sandbox however `body` ends.
  static func with<Result>(
    extraConfig: String = "", clock: Clock = Clock(), clientUsesClock: Bool = true,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (DemoHarness, Clock) async throws -> Result
  ) async throws -> Result {
    let (harness, clock) = try start(
      extraConfig: extraConfig, clock: clock, clientUsesClock: clientUsesClock)
    do {
      let result = try await body(harness, clock)
      await harness.stop()
      return result
    } catch {
      await harness.stop()
      throw error
    }
  }
}

func makeUser(_ id: Int) -> User {
  let json = #"{"id":\#(id),"firstName":"User\#(id)","lastName":"L"}"#
  do { return try JSONDecoder().decode(User.self, from: Data(json.utf8)) } catch {
    preconditionFailure("bad fixture \(error)")
  }
}
