import DemoKitTesting
import Foundation
import Strata
import StrataConcurrency
import StrataSandbox
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One transport for the whole suite: a long-lived URLSession, as in production. Its idle
/// backstop is only a hang guard: at 10 s, a busy machine could time an attempt out and make
/// the tests that count attempts see one more (the services' 300-s deadline, unless a test
/// sets one, ends a call first).
let sharedTransport = URLSessionTransport(options: .init(idleBackstop: 300))

struct SandboxUserPage: Decodable, Sendable {
  let users: [TestUser]
  let total: Int
}

struct ListUsers: Endpoint {
  var request: Request<SandboxUserPage> {
    Request(path: "users", query: ["limit": "5", "select": "firstName"])
  }
}

struct SlowUser: Endpoint {
  var request: Request<TestUser> { Request(path: "users/1", deadline: .milliseconds(300)) }
}

func sandboxService(
  _ server: SandboxServer, policy: RetryPolicy = RetryPolicy(baseDelay: .milliseconds(10)),
  authenticator: (any Authenticator)? = nil, transport: any HTTPTransport = sharedTransport
) -> NetworkService {
  // A deadline that is only a hang guard: a test counting attempts never has one cut short
  // by a busy machine.
  var configuration = NetworkOptions(
    baseURL: server.baseURL, deadline: .seconds(300), retryPolicy: policy)
  configuration.serverMessageFormat = .jsonField("message")  // the sandbox speaks DummyJSON
  return NetworkService(
    options: configuration, transport: transport, authenticator: authenticator)
}

/// A session for `server`, signed in with `login`, that refreshes through `plain`.
func sandboxSession(
  _ server: SandboxServer, _ plain: NetworkService, _ login: DummyJSONAuth.Tokens
) -> AuthSession {
  let origin = Origin(server.baseURL)!
  return AuthSession(
    origin: origin,
    store: InMemoryTokenStore(
      Credentials(
        accessToken: login.accessToken, refreshToken: login.refreshToken, origin: origin)),
    refresh: { token in
      let refreshed = try await plain.send(DummyJSONAuth.refresh(token)).value
      return Credentials(accessToken: refreshed.accessToken, refreshToken: refreshed.refreshToken)
    })
}

@Suite("NetworkService against the sandbox (real URLSession)")
struct NetworkIntegrationTests {
  @Test func getAndDecode() async throws {
    try await withSandbox { server in
      let page = try await sandboxService(server).send(ListUsers()).value
      #expect(page.users.count == 5 && page.total == 120)
      #expect(page.users.first == TestUser(id: 1, firstName: "Emily"))
      let entry = try #require(server.journal.entries.first)
      #expect(entry.header("User-Agent")?.contains("Strata/") == true)
      #expect(entry.header("Accept") == "application/json")
    }
  }

  @Test func serviceUnavailableTwiceThenSuccess() async throws {
    try await withSandbox { server in
      server.faults.fail(503, method: "GET", path: "/users/1", count: 2)
      let user = try await sandboxService(server).send(GetUser()).value
      #expect(user.firstName == "Emily")
      #expect(server.journal.count(method: "GET", path: "/users/1") == 3)
    }
  }

  @Test func postOn503IsSentOnce() async throws {
    try await withSandbox { server in
      server.faults.fail(503, method: "POST", path: "/things")
      let error = await networkError { _ = try await sandboxService(server).send(CreateThing()) }
      #expect(error?.status == 503)
      #expect(server.journal.count(method: "POST", path: "/things") == 1)
    }
  }

  @Test func deadlineExpiresWhileTheServerIsSlow() async throws {
    try await withSandbox { server in
      // The server answers after 60 s and the session would wait an hour: a timeout can only
      // come from the request's 300 ms deadline, however busy the machine (no clock is read).
      server.faults.add(.init(path: "/users/1", action: .delay(.seconds(60))))
      // Its own session: on Linux, tearing down the abandoned transfer can hold up every other
      // transfer of the same URLSession for seconds.
      let service = NetworkService(
        options: NetworkOptions(
          baseURL: server.baseURL, deadline: .seconds(300), retryPolicy: .none),
        transport: URLSessionTransport(options: .init(idleBackstop: 3600)))
      let error = await networkError { _ = try await service.send(SlowUser()) }
      #expect(error?.kind == .deadlineExceeded, "the 300 ms deadline, not the 60 s server")
    }
  }

  @Test func connectionRefusedIsATransportErrorAfterRetries() async throws {
    let service = NetworkService(
      options: NetworkOptions(
        baseURL: refusingURL, deadline: .seconds(300),
        retryPolicy: RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(5))),
      transport: sharedTransport)
    let error = await networkError { _ = try await service.send(GetUser()) }
    guard case .transport(let urlError) = error?.kind else {
      Issue.record("expected a transport error, got \(String(describing: error))")
      return
    }
    #expect(urlError.code == .cannotConnectToHost)
  }

  @Test func droppedConnectionIsRetried() async throws {
    try await withSandbox { server in
      server.faults.add(.init(method: "GET", path: "/users/1", count: 1, action: .dropConnection))
      _ = try await sandboxService(server).send(GetUser())
      #expect(server.journal.count(path: "/users/1") == 2)
    }
  }

  @Test func crossOriginRedirectDropsAuthorizationSameOriginKeepsIt() async throws {
    let origin = SandboxServer()
    let other = SandboxServer()
    try origin.start()
    try other.start()
    origin.faults.fail(
      302, path: "/hop-away", headers: ["Location": "\(other.baseURL.absoluteString)/users/1"])
    origin.faults.fail(
      302, path: "/hop-home", headers: ["Location": "\(origin.baseURL.absoluteString)/users/2"])

    for (path, server, target) in [
      ("/hop-away", other, "/users/1"), ("/hop-home", origin, "/users/2"),
    ] {
      var request = URLRequest(url: try #require(URL(string: origin.baseURL.absoluteString + path)))
      request.setValue("Bearer tok-secret", forHTTPHeaderField: "Authorization")
      request.setValue("session=abc", forHTTPHeaderField: "Cookie")
      let (response, _) = try await sharedTransport.send(
        request, body: nil, limits: TransferLimits())
      #expect(response.statusCode == 200)
      let arrived = try #require(server.journal.entries.last { $0.path == target })
      if server === other {
        #expect(arrived.header("Authorization") == nil, "Authorization forwarded to another origin")
        #expect(arrived.header("Cookie") == nil)
      } else {
        #expect(arrived.header("Authorization") == "Bearer tok-secret")
      }
    }
    await origin.stop()
    await other.stop()
  }

  @Test func expiredTokenIsRefreshedTransparentlyAgainstTheSandbox() async throws {
    let clock = Lock(Date(timeIntervalSince1970: 1_800_000_000))
    try await withSandbox(.init(now: { clock.withLock { $0 } })) { server in
      let plain = sandboxService(server)
      let login = try await plain.send(DummyJSONAuth.login(expiresInSeconds: 60)).value
      let session = sandboxSession(server, plain, login)
      let service = sandboxService(server, authenticator: session)
      #expect(try await service.send(GetMe()).value.firstName == "Emily")
      clock.withLock { $0 += 120 }  // the access token (60 s) is now expired on the server
      #expect(try await service.send(GetMe()).value.firstName == "Emily")
      #expect(server.journal.count(method: "POST", path: "/auth/refresh") == 1)
      #expect(server.journal.count(method: "GET", path: "/auth/me") == 3)
    }
  }
}
