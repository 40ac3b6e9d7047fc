import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A refresh function that hands out `tok-new-1`, `tok-new-2`, … and counts its calls.
final class CountingRefresher: Sendable {
  private let calls = AtomicInt(0)
  let failure: (any Error & Sendable)?
  let delay: Duration
  let expiresAt: Date?

  init(failure: (any Error & Sendable)? = nil, delay: Duration = .zero, expiresAt: Date? = nil) {
    self.failure = failure
    self.delay = delay
    self.expiresAt = expiresAt
  }

  var count: Int { calls.load() }

  var refresh: AuthSession.Refresh {
    { [self] _ in
      let number = calls.add(1)
      if delay > .zero { try await Task.sleep(for: delay) }
      if let failure { throw failure }
      return Credentials(
        accessToken: "tok-new-\(number)", refreshToken: "ref-new-\(number)", expiresAt: expiresAt)
    }
  }
}

/// A server that accepts only the listed bearer tokens (401 otherwise).
func acceptingTokens(_ accepted: Set<String>) -> MockTransport {
  MockTransport { request, _ in
    let header = request.value(forHTTPHeaderField: "Authorization") ?? ""
    let ok = accepted.contains(String(header.dropFirst("Bearer ".count)))
    return try MockTransport.response(
      request, status: ok ? 200 : 401, body: ok ? userJSON : #"{"message":"Token Expired!"}"#)
  }
}

let oldCredentials = Credentials(
  accessToken: "tok-old", refreshToken: "ref-old", origin: exampleOrigin)

@Suite("401 handling and AuthSession")
struct AuthRefreshTests {
  @Test func unauthorizedThenOneRefreshThenSuccess() async throws {
    let refresher = CountingRefresher()
    let session = AuthSession(
      origin: exampleOrigin, store: InMemoryTokenStore(oldCredentials), refresh: refresher.refresh)
    let transport = acceptingTokens(["tok-new-1"])
    let user = try await makeService(transport, authenticator: session).send(GetMe()).value
    #expect(user.id == 1)
    #expect(refresher.count == 1)
    #expect(
      transport.requests.map { $0.value(forHTTPHeaderField: "Authorization") } == [
        "Bearer tok-old", "Bearer tok-new-1",
      ])
  }

  @Test func failedRefreshSignsOutAndThrowsUnauthorized() async throws {
    let refresher = CountingRefresher(failure: NetworkError.server(status: 403, body: Data()))
    let store = InMemoryTokenStore(oldCredentials)
    let session = AuthSession(origin: exampleOrigin, store: store, refresh: refresher.refresh)
    let events = session.updates()
    let error = await networkError {
      _ = try await makeService(acceptingTokens([]), authenticator: session).send(GetMe())
    }
    #expect(error == NetworkError(.unauthorized(.refreshRejected), request: "GET /auth/me"))
    #expect(await session.isSignedIn == false)
    #expect(store.load() == nil)
    var iterator = events.makeAsyncIterator()
    #expect(await iterator.next() == .signedOut(.refreshRejected))
  }

  @Test func unauthorizedAfterTheRefreshIsFinal() async throws {
    let refresher = CountingRefresher()
    let session = AuthSession(
      origin: exampleOrigin, store: InMemoryTokenStore(oldCredentials), refresh: refresher.refresh)
    let transport = acceptingTokens([])
    let error = await networkError {
      _ = try await makeService(transport, authenticator: session).send(GetMe())
    }
    #expect(error == NetworkError(.unauthorized(.rejectedAfterRefresh), request: "GET /auth/me"))
    #expect(refresher.count == 1)
    #expect(transport.requestCount == 2)
  }

  @Test func staleTokenIsRetriedWithoutRefreshing() async throws {
    let refresher = CountingRefresher()
    let session = AuthSession(
      origin: exampleOrigin, store: InMemoryTokenStore(oldCredentials), refresh: refresher.refresh)
    try await session.signIn(Credentials(accessToken: "tok-current", refreshToken: "r"))
    #expect(try await session.refresh(rejectedToken: "tok-old") == "tok-current")
    #expect(refresher.count == 0)
  }

  @Test func hundredConcurrent401sShareOneRefresh() async throws {
    let refresher = CountingRefresher(delay: .milliseconds(20))
    let session = AuthSession(
      origin: exampleOrigin, store: InMemoryTokenStore(oldCredentials), refresh: refresher.refresh)
    let transport = acceptingTokens(["tok-new-1"])
    let service = makeService(transport, authenticator: session)
    let successes = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<100 { group.addTask { try await service.send(GetMe()).value.id } }
      return try await group.reduce(0) { $0 + $1 }
    }
    #expect(successes == 100)
    #expect(refresher.count == 1)
    #expect(await session.refreshCount == 1)
  }

  /// A storm against a server that rejects every token, the renewed one too: the refresh
  /// itself works, so no call may say it was refused — each call's session ended after it.
  @Test func aStormWhoseRenewedTokenIsRejectedNeverBlamesTheRefresh() async throws {
    let refresher = CountingRefresher()
    let session = AuthSession(
      origin: exampleOrigin, store: InMemoryTokenStore(oldCredentials), refresh: refresher.refresh)
    // All 50 go out with the old token. The first is answered once all have been sent; the
    // others only once its renewed token was rejected too and the session is over — their
    // refresh then finds no session.
    let sent = AtomicInt(0)
    let transport = MockTransport { request, _ in
      if request.value(forHTTPHeaderField: "Authorization") == "Bearer tok-old" {
        if sent.add(1) > 1 {
          while await session.isSignedIn { await Task.yield() }
        } else {
          while sent.load() < 50 { await Task.yield() }
        }
      }
      return try MockTransport.response(request, status: 401, body: #"{"message":"no"}"#)
    }
    let service = makeService(transport, authenticator: session)
    let kinds = await withTaskGroup(of: NetworkError.Kind?.self) { group in
      for _ in 0..<50 {
        group.addTask {
          do {
            _ = try await service.send(GetMe())
            return nil
          } catch {
            return (error as? NetworkError)?.kind
          }
        }
      }
      return await group.reduce(into: [NetworkError.Kind?]()) { $0.append($1) }
    }
    #expect(refresher.count == 1)
    #expect(kinds.count == 50 && !kinds.contains(.unauthorized(.refreshRejected)), "\(kinds)")
    #expect(kinds.filter { $0 == .unauthorized(.rejectedAfterRefresh) }.count == 1)
    #expect(kinds.filter { $0 == .unauthorized(.sessionEnded) }.count == 49)
  }

  /// The authenticator's own verdict on a refresh is passed on as it is: a session that ended
  /// while the call waited is `sessionEnded`, not a refused refresh.
  @Test func anAuthenticatorsVerdictOnARefreshIsKept() async throws {
    final class Ended: Authenticator, Sendable {
      let origin = exampleOrigin
      func session() async throws -> SessionMark { SessionMark(token: "tok-old", owner: .device) }
      func refresh(rejectedToken: String) async throws -> String {
        throw NetworkError.unauthorized(.sessionEnded)
      }
      func rejected(refreshedToken: String) async {}
      func owner() async -> DataOwner { .device }
    }
    let network = makeService(acceptingTokens([]), authenticator: Ended())
    let error = await #expect(throws: NetworkError.self) { try await network.send(GetMe()) }
    #expect(error?.kind == .unauthorized(.sessionEnded))
  }

  @Test func signedOutSendsNothing() async throws {
    let session = AuthSession(origin: exampleOrigin, store: InMemoryTokenStore())
    let transport = MockTransport.successful(json: userJSON)
    let error = await networkError {
      _ = try await makeService(transport, authenticator: session).send(GetMe())
    }
    #expect(error == NetworkError(.unauthorized(.notSignedIn), request: "GET /auth/me"))
    #expect(transport.requestCount == 0)
  }

  @Test func tokenNearExpiryIsRefreshedBeforeUse() async throws {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let refresher = CountingRefresher()
    let credentials = Credentials(
      accessToken: "tok-old", refreshToken: "r", expiresAt: now.addingTimeInterval(10),
      origin: exampleOrigin)
    let session = AuthSession(
      origin: exampleOrigin, store: InMemoryTokenStore(credentials), now: { now },
      refresh: refresher.refresh)
    let transport = acceptingTokens(["tok-new-1"])
    _ = try await makeService(transport, authenticator: session).send(GetMe())
    #expect(refresher.count == 1)
    #expect(
      transport.requests.map { $0.value(forHTTPHeaderField: "Authorization") } == [
        "Bearer tok-new-1"
      ])
  }

  @Test func aRenewedTokenRejectedAgainEndsTheSession() async throws {
    let refresher = CountingRefresher()
    let session = AuthSession(
      origin: exampleOrigin, store: InMemoryTokenStore(oldCredentials), refresh: refresher.refresh)
    let events = session.updates()
    let transport = acceptingTokens([])
    let error = await networkError {
      _ = try await makeService(transport, authenticator: session).send(GetMe())
    }
    #expect(error == NetworkError(.unauthorized(.rejectedAfterRefresh), request: "GET /auth/me"))
    #expect(refresher.count == 1 && transport.requests.count == 2, "refreshed once, replayed once")
    #expect(await session.isSignedIn == false)
    #expect(await firstElements(2, of: events) == [.refreshed, .signedOut(.tokenRejected)])
  }

  @Test func refreshLoopIsStopped() async throws {
    // A server that issues tokens already expired: every use refreshes ahead of time.
    let refresher = CountingRefresher(expiresAt: .distantPast)
    let clock = ManualClock()
    let session = AuthSession(
      origin: exampleOrigin, store: InMemoryTokenStore(oldCredentials), clock: clock,
      refresh: refresher.refresh)
    let events = session.updates()
    let service = makeService(
      acceptingTokens(Set((1...9).map { "tok-new-\($0)" })), authenticator: session)
    for _ in 0..<7 { _ = try? await service.send(GetMe()) }
    #expect(refresher.count == 5)
    #expect(await session.isSignedIn == false)
    #expect(
      await firstElements(6, of: events)
        == Array(repeating: .refreshed, count: 5) + [.signedOut(.refreshLoop)])
  }

  @Test func transientRefreshFailureKeepsTheSession() async throws {
    let refresher = CountingRefresher(failure: NetworkError.transport(URLError(.timedOut)))
    let session = AuthSession(
      origin: exampleOrigin, store: InMemoryTokenStore(oldCredentials), refresh: refresher.refresh)
    let capture = CapturingLogSink()
    let error = await Log.withScope(sink: capture) {
      await networkError {
        _ = try await makeService(acceptingTokens([]), authenticator: session).send(GetMe())
      }
    }
    #expect(capture.text.contains("refresh failed, session kept"))
    guard case .refreshFailed? = error?.kind, error?.underlying is NetworkError else {
      Issue.record("expected .refreshFailed(.transport), got \(String(describing: error))")
      return
    }
    #expect(await session.isSignedIn)
  }

  @Test func tokensNeverAppearInLogsAtAnyLevel() async throws {
    let capture = CapturingLogSink()
    let refresher = CountingRefresher()
    try await Log.withScope(sink: capture, levels: .all) {
      let store = InMemoryTokenStore()
      let session = AuthSession(origin: exampleOrigin, store: store, refresh: refresher.refresh)
      try await session.signIn(oldCredentials)
      let transport = MockTransport { request, index in
        let ok = request.value(forHTTPHeaderField: "Authorization") == "Bearer tok-new-1"
        let body =
          ok
          ? #"{"id":1,"firstName":"E","accessToken":"tok-new-1","refreshToken":"ref-new-1"}"# : "{}"
        return try MockTransport.response(
          request, status: ok ? 200 : (index == 1 ? 503 : 401), body: body,
          headers: ["Set-Cookie": "session=ref-old"])
      }
      _ = try await makeService(transport, authenticator: session).send(GetMe())
      Log.auth.info(
        "credentials now \(Credentials(accessToken: "tok-new-1", refreshToken: "ref-new-1"))")
    }
    #expect(capture.records.count > 5)
    #expect(capture.text.contains("<redacted>"))
    for secret in ["tok-old", "ref-old", "tok-new-1", "ref-new-1"] {
      #expect(!capture.text.contains(secret), "\(secret) leaked")
    }
  }
}
