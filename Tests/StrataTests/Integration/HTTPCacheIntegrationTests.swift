import Foundation
import Strata
import StrataSandbox
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The HTTP cache through the real URLSession against the sandbox, which answers as the real
/// service's Express does: a weak `ETag` on every JSON answer, `304 Not Modified` for a
/// matching `If-None-Match`.
///
/// User 2, not 1: the sandbox, like the real service, sends each user's password with the
/// record, and tests elsewhere in this process sign in as user 1 — an answer that holds a
/// password or token the process knows is never cached.
@Suite("HTTP cache against the sandbox (real URLSession)")
struct HTTPCacheIntegrationTests {
  private static func service(_ server: SandboxServer, baseURL: URL? = nil) -> NetworkService {
    var options = NetworkOptions(
      baseURL: baseURL ?? server.baseURL, deadline: .seconds(300), retryPolicy: .none)
    options.serverMessageFormat = .jsonField("message")
    return NetworkService(options: options, transport: sharedTransport)
  }

  /// The second read sends the first answer's ETag and gets a 304: the stored body is used.
  /// A change to the resource (PUT) drops the stored answer: the next read is a full one.
  @Test func aSecondReadIsRevalidatedWithTheServersETag() async throws {
    try await withSandbox { server in
      let network = Self.service(server)
      #expect(try await network.send(GetUser(id: 2)).source == .network)
      let again = try await network.send(GetUser(id: 2))
      #expect(again.source == .revalidated && again.value.firstName == "Michael")
      let conditional = server.journal.entries.last { $0.path == "/users/2" }
      #expect(conditional?.header("If-None-Match")?.hasPrefix("W/\"") == true)

      _ = try await network.send(
        Request<EmptyResponse>(path: "users/2", method: .put, body: .json(["firstName": "Emma"])))
      #expect(try await network.send(GetUser(id: 2)).source == .network)
    }
  }

  /// With a `Cache-Control` the sandbox adds (a fault per route), the answer is fresh: no
  /// request until it is stale, and a refresh asks anyway.
  @Test func aFreshAnswerMakesNoRequest() async throws {
    try await withSandbox { server in
      server.faults.add(
        .init(method: "GET", path: "/users/2", count: 10, action: .cacheControl("max-age=600")))
      let network = Self.service(server)
      _ = try await network.send(GetUser(id: 2))
      let before = server.journal.entries.count
      // Real time passes on a busy machine: any age below the 600 s it is fresh for.
      guard case .cache(let age) = try await network.send(GetUser(id: 2)).source, age < 600 else {
        Issue.record("the fresh answer was not used")
        return
      }
      #expect(server.journal.entries.count == before)
      var refresh = Request<TestUser>(path: "users/2")
      refresh.cachePolicy = .revalidate
      #expect(try await network.send(refresh).source == .revalidated)
      #expect(server.journal.entries.count == before + 1)
    }
  }

  /// The server gone: the last answer stands in, and says how old it is.
  @Test func withTheServerGoneTheLastAnswerStandsIn() async throws {
    let server = SandboxServer()
    try server.start()
    let network = Self.service(server)
    _ = try await network.send(GetUser(id: 2))
    server.stopAndWait()
    let answer = try await network.send(GetUser(id: 2))
    guard case .stale = answer.source else {
      Issue.record("expected a stale answer, got \(answer.source)")
      return
    }
    #expect(answer.value.firstName == "Michael")
  }
}
