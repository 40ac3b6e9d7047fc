import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

struct TestUser: Decodable, Sendable, Equatable {
  let id: Int
  let firstName: String
}

struct GetUser: Endpoint {
  var id = 1
  var request: Request<TestUser> { Request(path: "users/\(id)") }
}

/// Each its own request, never sharing one with identical reads in flight: the refresh
/// storms that send it many times at once count the requests the server sees.
struct GetMe: Endpoint {
  var request: Request<TestUser> {
    var request = Request<TestUser>(path: "auth/me", requiresAuth: true)
    request.coalesces = false
    return request
  }
}

struct CreateThing: Endpoint {
  struct Body: Encodable, Sendable { let title: String }
  var request: Request<EmptyResponse> {
    Request(path: "things", method: .post, body: .json(Body(title: "t")))
  }
}

/// The origin of ``makeService(_:clock:policy:timeout:authenticator:baseURL:)``'s default base URL.
let exampleOrigin = Origin("https://api.example")!

/// A loopback port nothing listens on, below the ephemeral range, so no test's server can be
/// given it (a stopped server's port can be: another test's requests would then reach it).
let refusingURL = URL(string: "http://127.0.0.1:1")!

let userJSON = #"{"id":1,"firstName":"Emily"}"#

/// A service over `transport` on a manual clock. Its deadline is a hang guard (5 min of real
/// time for the transport's own limit): no verdict depends on how busy the machine is.
func makeService(
  _ transport: any HTTPTransport, clock: ManualClock = ManualClock(),
  policy: RetryPolicy = .default,
  timeout: Duration = .seconds(300), authenticator: (any Authenticator)? = nil,
  baseURL: String = "https://api.example"
) -> NetworkService {
  NetworkService(
    options: NetworkOptions(
      baseURL: URL(string: baseURL) ?? URL(fileURLWithPath: "/"), deadline: timeout,
      retryPolicy: policy,
      userAgent: "StrataTests/1"),
    transport: transport, authenticator: authenticator, clock: clock)
}

/// Unwraps a NetworkError from any thrown error.
func networkError(_ body: () async throws -> Void) async -> NetworkError? {
  do {
    try await body()
    return nil
  } catch {
    return error as? NetworkError
  }
}

/// Polls `condition` for up to 300 s: a hang guard only (a regression fails, saying what it
/// waited for, instead of hanging), never a verdict on speed.
func waitUntil(_ what: String, _ condition: @Sendable () -> Bool) async throws {
  let deadline = ContinuousClock.now + .seconds(300)
  while !condition() {
    guard ContinuousClock.now < deadline else {
      Issue.record("timed out after 300 s waiting for \(what)")
      return
    }
    try await Task.sleep(for: .milliseconds(1))
  }
}

/// A call's `progress:` handler that keeps every step it is told, in order.
final class ProgressLog: Sendable {
  private let steps = Lock<[TransferProgress]>([])

  var report: @Sendable (TransferProgress) -> Void {
    { [steps] step in steps.withLock { $0.append(step) } }
  }
  var all: [TransferProgress] { steps.withLock { $0 } }
  var last: TransferProgress? { all.last }
}
