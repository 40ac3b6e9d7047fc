import DemoKitTesting
import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

final class StartCounter: Sendable {
  let count = AtomicInt(0)
}

struct AbsoluteEndpoint: Endpoint {
  let path: String
  var request: Request<TestUser> { Request(path: path, requiresAuth: true) }
}

@Suite("Session safety: origin binding and refresh that never corrupts a session")
struct SessionSafetyTests {
  // MARK: Origin binding

  @Test(arguments: [
    "https://evil.example/steal", "http://api.example/users/1", "https://api.example:8443/x",
    "https://api.example.evil.example/x",
  ])
  func anEndpointOnAnotherOriginGoesWithoutTheToken(_ url: String) async throws {
    let session = AuthSession(origin: exampleOrigin, store: InMemoryTokenStore(oldCredentials))
    let transport = MockTransport.successful(json: userJSON)
    _ = try await makeService(transport, authenticator: session).send(AbsoluteEndpoint(path: url))
    #expect(transport.requests.first?.value(forHTTPHeaderField: "Authorization") == nil)
    _ = try await makeService(transport, authenticator: session).send(
      AbsoluteEndpoint(path: "https://api.example/users/1"))
    #expect(transport.requests.last?.value(forHTTPHeaderField: "Authorization") == "Bearer tok-old")
  }

  @Test func credentialsOfAnotherOriginOrOfNoneAreNeverSent() async throws {
    let elsewhere = try #require(Origin("https://other.example"))
    for stored in [
      Credentials(accessToken: "tok-else", refreshToken: "ref-else", origin: elsewhere),
      Credentials(accessToken: "tok-unbound", refreshToken: "ref-unbound"),
    ] {
      let session = AuthSession(origin: exampleOrigin, store: InMemoryTokenStore(stored))
      let transport = MockTransport.successful(json: userJSON)
      let error = await networkError {
        _ = try await makeService(transport, authenticator: session).send(GetMe())
      }
      #expect(error?.kind == .unauthorized(.notSignedIn))
      #expect(transport.requestCount == 0)
    }
  }

  @Test func signInBindsTheCredentialsToTheSessionsOrigin() async throws {
    let store = InMemoryTokenStore()
    let session = AuthSession(origin: exampleOrigin, store: store)
    try await session.signIn(Credentials(accessToken: "tok-a", refreshToken: "ref-a"))
    #expect(store.load()?.origin == exampleOrigin)
    #expect(Origin("https://API.example:443") == exampleOrigin)
    #expect(Origin("http://api.example") != exampleOrigin, "a downgrade is another origin")
  }

  // MARK: What ends a session

  static let keptFailures: [NetworkError] = [
    .server(status: 500, body: Data()), .server(status: 502, body: Data("<html>".utf8)),
    .transport(URLError(.secureConnectionFailed)), .transport(URLError(.notConnectedToInternet)),
    .server(status: 404, body: Data()), NetworkError(.invalidResponse),
  ]

  @Test(arguments: keptFailures)
  func aFailureThatIsNotARejectionKeepsTheSession(_ failure: NetworkError) async throws {
    let refresher = CountingRefresher(failure: failure)
    let store = InMemoryTokenStore(oldCredentials)
    let session = AuthSession(origin: exampleOrigin, store: store, refresh: refresher.refresh)
    let error = await networkError {
      _ = try await makeService(acceptingTokens([]), authenticator: session).send(GetMe())
    }
    #expect(error.map(RetryPolicy.isTransient) == true, "\(String(describing: error))")
    #expect(await session.isSignedIn)
    #expect(store.load() == oldCredentials)
  }

  @Test func aCaptivePortalsHTMLPageKeepsTheSession() async throws {
    let portal = makeService(
      MockTransport.successful(json: "<html><body>Sign in to the Wi-Fi</body></html>"))
    let store = InMemoryTokenStore(oldCredentials)
    let session = AuthSession(
      origin: exampleOrigin, store: store,
      refresh: { token in
        let refreshed = try await portal.send(DummyJSONAuth.refresh(token)).value
        return Credentials(accessToken: refreshed.accessToken, refreshToken: refreshed.refreshToken)
      })
    let error = await networkError {
      _ = try await makeService(acceptingTokens([]), authenticator: session).send(GetMe())
    }
    guard case .refreshFailed? = error?.kind, let underlying = error?.underlying else {
      Issue.record("expected .refreshFailed, got \(String(describing: error))")
      return
    }
    #expect("\(underlying)".contains("could not decode"))
    #expect(error.map(RetryPolicy.isTransient) == true)
    #expect(await session.isSignedIn)
    #expect(store.load() == oldCredentials)
  }

  @Test(arguments: [400, 401, 403])
  func aDefinitiveRejectionSignsOut(_ status: Int) async throws {
    let failure: NetworkError =
      status == 401 ? .unauthorized(.signInRequired) : .server(status: status, body: Data())
    let store = InMemoryTokenStore(oldCredentials)
    let session = AuthSession(
      origin: exampleOrigin, store: store, refresh: CountingRefresher(failure: failure).refresh)
    let error = await networkError {
      _ = try await makeService(acceptingTokens([]), authenticator: session).send(GetMe())
    }
    #expect(error?.kind == .unauthorized(.refreshRejected))
    #expect(error?.request == "GET /auth/me")
    #expect(await session.isSignedIn == false)
    #expect(store.load() == nil)
  }

  // MARK: The session changing while a refresh is in flight

  /// Starts a refresh held at the gate, plus `joiners` callers that join it.
  static func refreshInFlight(_ session: AuthSession, _ gate: Gate, joiners: Int = 8)
    async throws -> [Task<String, any Error>]
  {
    var tasks = [Task { try await session.refresh(rejectedToken: "tok-old") }]
    try await gate.waitUntilEntered()
    let started = StartCounter()
    for _ in 0..<joiners {
      tasks.append(
        Task {
          started.count.add(1)
          return try await session.refresh(rejectedToken: "tok-old")
        })
    }
    while started.count.load() < joiners { await Task.yield() }
    for _ in 0..<50 { await Task.yield() }  // let them reach the actor and join
    return tasks
  }

  static func gatedSession(_ gate: Gate, store: any TokenStore) -> AuthSession {
    AuthSession(
      origin: exampleOrigin, store: store,
      refresh: { _ in
        await gate.pass()
        return Credentials(accessToken: "tok-old-account-refreshed", refreshToken: "ref-refreshed")
      })
  }

  @Test func aSignOutDuringARefreshLeavesEveryWaiterUnauthorized() async throws {
    let gate = Gate()
    let store = InMemoryTokenStore(oldCredentials)
    let session = Self.gatedSession(gate, store: store)
    let tasks = try await Self.refreshInFlight(session, gate)
    await session.signOut()
    gate.open()
    for task in tasks {
      await #expect(throws: NetworkError.self) { _ = try await task.value }
    }
    #expect(await session.isSignedIn == false)
    #expect(store.load() == nil, "the late refresh result was not stored")
    #expect(gate.entered == 1)
  }

  @Test func aSignInDuringARefreshGivesEveryWaiterTheNewSessionsToken() async throws {
    let gate = Gate()
    let store = InMemoryTokenStore(oldCredentials)
    let session = Self.gatedSession(gate, store: store)
    let tasks = try await Self.refreshInFlight(session, gate)
    try await session.signIn(Credentials(accessToken: "tok-other-account", refreshToken: "ref-o"))
    gate.open()
    for task in tasks { #expect(try await task.value == "tok-other-account") }
    #expect(store.load()?.accessToken == "tok-other-account")
  }

  // MARK: Processes sharing a token file

  /// A session file in a folder of its own, holding `oldCredentials`, as processes share it;
  /// the folder goes with the returned value.
  private static func sharedSessionFile() throws -> (TemporaryDirectory, String) {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/app/credentials.json"
    try FileTokenStore(path: path).save(oldCredentials)
    return (directory, path)
  }

  @Test func twoSessionsSharingAFileSpendTheRefreshTokenOnce() async throws {
    let (directory, path) = try Self.sharedSessionFile()
    defer { withExtendedLifetime(directory) {} }
    let gate = Gate()
    let refresher = CountingRefresher()
    let first = AuthSession(
      origin: exampleOrigin, store: FileTokenStore(path: path),
      refresh: { token in
        await gate.pass()
        return try await refresher.refresh(token)
      })
    let second = AuthSession(
      origin: exampleOrigin, store: FileTokenStore(path: path), refresh: refresher.refresh)
    let winner = Task { try await first.refresh(rejectedToken: "tok-old") }
    try await gate.waitUntilEntered()
    let loser = Task { try await second.refresh(rejectedToken: "tok-old") }
    for _ in 0..<20 { await Task.yield() }  // the second waits for the file lock
    gate.open()
    #expect(try await winner.value == "tok-new-1")
    #expect(try await loser.value == "tok-new-1", "the second adopted the first one's token")
    #expect(refresher.count == 1)
    #expect(try FileTokenStore(path: path).load()?.accessToken == "tok-new-1")
  }

  /// Tokens another process refreshed, adopted here after a 401, are secrets here too: a log
  /// line or an error that quotes them shows them masked.
  @Test func tokensAdoptedFromAnotherProcessAreMasked() async throws {
    let (directory, path) = try Self.sharedSessionFile()
    defer { withExtendedLifetime(directory) {} }
    let refresher = CountingRefresher()
    let session = AuthSession(
      origin: exampleOrigin, store: FileTokenStore(path: path), refresh: refresher.refresh)
    let fresh = "tok-adopted-" + UUID().uuidString
    // Written as another process would (a save registers nothing in this one).
    try FileTokenStore(path: path).save(
      Credentials(
        accessToken: fresh, refreshToken: "ref-adopted-" + UUID().uuidString,
        origin: exampleOrigin, owner: oldCredentials.owner))
    #expect(try await session.refresh(rejectedToken: "tok-old") == fresh)
    #expect(refresher.count == 0, "adopted, not refreshed")
    #expect(!KnownSecrets.mask("sent \(fresh)").contains(fresh))
  }

  @Test func aRejectionKeepsNewerCredentialsAnotherProcessStored() async throws {
    let (directory, path) = try Self.sharedSessionFile()
    defer { withExtendedLifetime(directory) {} }
    let gate = Gate()
    let session = AuthSession(
      origin: exampleOrigin, store: FileTokenStore(path: path),
      refresh: { _ in
        await gate.pass()
        throw NetworkError.server(status: 403, body: Data())
      })
    let refresh = Task { try await session.refresh(rejectedToken: "tok-old") }
    try await gate.waitUntilEntered()
    let fresh = Credentials(
      accessToken: "tok-fresh", refreshToken: "ref-fresh", origin: exampleOrigin)
    try FileTokenStore(path: path).save(fresh)  // another process signed in meanwhile
    gate.open()
    #expect(try await refresh.value == "tok-fresh")
    #expect(try FileTokenStore(path: path).load() == fresh, "the newer session was not deleted")
  }

  // MARK: Signing out and untrusted files

  @Test func signOutRemovesAFileOthersCanRead() async throws {
    let directory = try TemporaryDirectory()
    let store = FileTokenStore(path: directory.path + "/app/credentials.json")
    try store.save(oldCredentials)
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: store.path)
    let session = AuthSession(origin: exampleOrigin, store: store)
    #expect(await session.isSignedIn == false, "an untrusted file is not used")
    await session.signOut()
    #expect(!FileManager.default.fileExists(atPath: store.path))
  }

  @Test func aDirectoryOthersCanWriteIsRefused() throws {
    let directory = try TemporaryDirectory()
    let store = FileTokenStore(path: directory.path + "/app/credentials.json")
    try store.save(oldCredentials)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o777], ofItemAtPath: directory.path + "/app")
    #expect(throws: FileError.self) { try store.load() }
    #expect(throws: FileError.self) { try store.save(oldCredentials) }
  }

  @Test func aSymbolicLinkOrAnOversizedFileIsRefused() throws {
    let directory = try TemporaryDirectory()
    let target = try directory.write("elsewhere.json", "{}")
    try FileManager.default.createSymbolicLink(
      atPath: directory.path + "/link.json", withDestinationPath: target)
    #expect(
      throws: FileError.notRegularFile(
        path: directory.path + "/link.json", found: "a symbolic link")
    ) {
      try FileTokenStore(path: directory.path + "/link.json").load()
    }
    let big = try directory.write("big.json", String(repeating: " ", count: 100_000))
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: big)
    #expect(throws: FileError.tooLarge(path: big, size: 100_000, limit: 64 * 1024)) {
      try FileTokenStore(path: big).load()
    }
  }
}
