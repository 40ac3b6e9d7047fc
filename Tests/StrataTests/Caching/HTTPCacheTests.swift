import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Wall-clock time the test moves by hand: freshness and staleness never depend on how fast
/// the machine is.
private final class WallClock: @unchecked Sendable {
  private let lock = NSLock()
  private var current = Date(timeIntervalSince1970: 1_800_000_000)

  var now: Date { lock.withLock { current } }
  func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

/// A server script: each request answered by `answer(request, index)`; requests kept.
private func server(
  _ answer: @escaping @Sendable (URLRequest, Int) throws -> (Int, String, [String: String])
) -> MockTransport {
  MockTransport { request, index in
    let (status, body, headers) = try answer(request, index)
    return try MockTransport.response(request, status: status, body: body, headers: headers)
  }
}

private func service(
  _ transport: MockTransport, _ clock: WallClock, maxStale: Duration = .seconds(86_400),
  records: RecordBox? = nil
) -> NetworkService {
  var options = NetworkOptions(
    baseURL: URL(string: "https://api.example") ?? URL(fileURLWithPath: "/"),
    deadline: .seconds(300),
    retryPolicy: .none)
  options.cache = HTTPCache(maxStale: maxStale, now: { clock.now })
  if let records { options.observer = CallObserver { records.add($0) } }
  return NetworkService(options: options, transport: transport, clock: ManualClock())
}

private final class RecordBox: @unchecked Sendable {
  private let lock = NSLock()
  private var records: [RequestRecord] = []
  func add(_ record: RequestRecord) { lock.withLock { records.append(record) } }
  var all: [RequestRecord] { lock.withLock { records } }
}

@Suite("HTTP cache: freshness, revalidation, stale answers, invalidation")
struct HTTPCacheTests {
  /// Fresh (`max-age`): answered without a request. Stale: revalidated with its ETag; a 304
  /// (no body) refreshes it with the new headers, and the stored body is decoded again.
  @Test func aFreshAnswerIsUsedAndAStaleOneRevalidated() async throws {
    let clock = WallClock()
    let records = RecordBox()
    let transport = server { request, index in
      if index == 1 {
        return (200, userJSON, ["Cache-Control": "max-age=60", "ETag": "W/\"a1\""])
      }
      #expect(request.value(forHTTPHeaderField: "If-None-Match") == "W/\"a1\"")
      return (304, "", ["Cache-Control": "max-age=120", "ETag": "W/\"a1\""])
    }
    let network = service(transport, clock, records: records)

    #expect(try await network.send(GetUser()).source == .network)
    clock.advance(30)
    let hit = try await network.send(GetUser())
    #expect(hit.source == .cache(age: 30) && hit.value == TestUser(id: 1, firstName: "Emily"))
    #expect(transport.requestCount == 1)

    clock.advance(31)  // 61 s: past max-age=60
    let revalidated = try await network.send(GetUser())
    #expect(revalidated.source == .revalidated)
    #expect(revalidated.value == TestUser(id: 1, firstName: "Emily"))
    clock.advance(100)  // fresh again for the 304's max-age=120
    #expect(try await network.send(GetUser()).source == .cache(age: 100))
    #expect(transport.requestCount == 2)
    #expect(records.all.map(\.source?.label) == ["miss", "hit", "revalidated", "hit"])
    #expect(records.all.map(\.attempt) == [1, 0, 1, 0])
  }

  /// A hit returns the value the service decoded from that answer before, without parsing
  /// the body again; another type, another service's decoder (it may decode differently) and
  /// a new answer each decode for themselves.
  /// The status a `send` gives is the answer's own: a 201 from the network, and the kept
  /// answer's 200 when a 304 refreshed it or it stood in for a 503 (neither the 304 nor the
  /// 503 is what the value was decoded from).
  @Test func theStatusIsTheOneTheValueWasDecodedFrom() async throws {
    let clock = WallClock()
    let transport = server { request, index in
      switch index {
      case 1: return (201, #"{"id":7}"#, [:])
      case 2: return (200, userJSON, ["Cache-Control": "max-age=60", "ETag": "\"a\""])
      case 3: return (304, "", ["Cache-Control": "max-age=60", "ETag": "\"a\""])
      default: return (503, "", [:])
      }
    }
    let network = service(transport, clock)
    let created = try await network.send(Request<Created>(path: "users/add", method: .post))
    #expect(created.status == 201 && created.source == .network)
    #expect(try await network.send(GetUser()).status == 200)
    clock.advance(61)
    let revalidated = try await network.send(GetUser())
    #expect(revalidated.source == .revalidated && revalidated.status == 200)
    clock.advance(61)
    let standIn = try await network.send(GetUser())
    #expect(standIn.source == .stale(age: 61) && standIn.status == 200)
  }

  private struct Created: Decodable, Sendable { let id: Int }

  @Test func aStoredAnswerIsDecodedOncePerServiceAndType() async throws {
    struct Counted: Decodable, Sendable, Equatable {
      static let decodes = Lock(0)
      let firstName: String
      init(from decoder: any Decoder) throws {
        enum Keys: String, CodingKey { case firstName }
        firstName = try decoder.container(keyedBy: Keys.self).decode(
          String.self, forKey: .firstName)
        Self.decodes.withLock { $0 += 1 }
      }
    }
    let clock = WallClock()
    let transport = server { _, index in
      (200, #"{"id":\#(index),"firstName":"Emily\#(index)"}"#, ["Cache-Control": "max-age=60"])
    }
    let first = service(transport, clock)
    let counted = Request<Counted>(path: "users/1")
    #expect(try await first.send(counted).value.firstName == "Emily1")
    for _ in 0..<3 { #expect(try await first.send(counted).value.firstName == "Emily1") }
    #expect(Counted.decodes.withLock { $0 } == 1, "the answer, kept with its value; no more")

    #expect(try await first.send(GetUser()).value == TestUser(id: 1, firstName: "Emily1"))
    var options = first.options
    options.observer = nil
    let second = NetworkService(options: options, transport: transport, clock: ManualClock())
    #expect(try await second.send(counted).value.firstName == "Emily1")
    #expect(Counted.decodes.withLock { $0 } == 2, "another service decodes for itself")

    clock.advance(61)
    #expect(try await first.send(counted).value.firstName == "Emily2")
    #expect(try await first.send(counted).value.firstName == "Emily2")
    #expect(Counted.decodes.withLock { $0 } == 3, "a new answer is decoded once")
    #expect(transport.requestCount == 2)
  }

  /// Only an ETag: kept, never fresh (no heuristic freshness), so every read asks; a new
  /// body replaces the old one.
  @Test func anAnswerWithOnlyAValidatorIsAlwaysRevalidated() async throws {
    let clock = WallClock()
    let transport = server { request, index in
      switch index {
      case 1: return (200, userJSON, ["ETag": "\"v1\""])
      case 2:
        #expect(request.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
        return (200, #"{"id":1,"firstName":"Emma"}"#, ["ETag": "\"v2\""])
      default:
        #expect(request.value(forHTTPHeaderField: "If-None-Match") == "\"v2\"")
        return (304, "", ["ETag": "\"v2\""])
      }
    }
    let network = service(transport, clock)
    _ = try await network.send(GetUser())
    #expect(try await network.send(GetUser()).value.firstName == "Emma")
    let third = try await network.send(GetUser())
    #expect(third.source == .revalidated && third.value.firstName == "Emma")
    #expect(transport.requestCount == 3)
  }

  /// `no-store`, `Vary: *`, a status other than 200/203 and an answer with neither lifetime
  /// nor validator are never kept; `Set-Cookie` is never kept nor replayed.
  @Test(arguments: [
    ["Cache-Control": "no-store, max-age=60"], ["Cache-Control": "max-age=60", "Vary": "*"],
    [:],
  ])
  func answersThatMayNotBeKeptAreNot(_ headers: [String: String]) async throws {
    let clock = WallClock()
    let transport = server { _, _ in (200, userJSON, headers) }
    let network = service(transport, clock)
    _ = try await network.send(GetUser())
    #expect(try await network.send(GetUser()).source == .network)
    #expect(transport.requestCount == 2)
  }

  @Test func aCookieIsNeitherKeptNorReplayed() async throws {
    let clock = WallClock()
    let cache = HTTPCache(now: { clock.now })
    var options = NetworkOptions(
      baseURL: URL(string: "https://api.example") ?? URL(fileURLWithPath: "/"),
      deadline: .seconds(300))
    options.cache = cache
    let transport = server { _, index in
      (200, userJSON, ["Cache-Control": "max-age=60", "Set-Cookie": "session=s3cr3t-\(index)"])
    }
    let network = NetworkService(options: options, transport: transport, clock: ManualClock())
    _ = try await network.send(GetUser())
    #expect(try await network.send(GetUser()).source == .cache(age: 0))
    #expect(cache.count == 1)
    #expect(transport.requests.allSatisfy { $0.value(forHTTPHeaderField: "Cookie") == nil })
  }

  /// When the server cannot be reached or fails (5xx), a stale answer stands in — up to
  /// `maxStale`, or its own `stale-if-error`; never one marked `must-revalidate`; never for
  /// a 4xx (the server answered).
  @Test func aStaleAnswerStandsInForAFailureWithinItsLimits() async throws {
    let clock = WallClock()
    let transport = server { _, index in
      index == 1
        ? (200, userJSON, ["Cache-Control": "max-age=10"]) : (503, #"{"message":"down"}"#, [:])
    }
    let network = service(transport, clock, maxStale: .seconds(3_600))
    _ = try await network.send(GetUser())
    clock.advance(1_000)
    #expect(try await network.send(GetUser()).source == .stale(age: 1_000))
    clock.advance(3_000)  // 3,990 s past its freshness: over maxStale
    let error = await networkError { _ = try await network.send(GetUser()) }
    #expect(error?.status == 503)

    for (headers, standsIn) in [
      (["Cache-Control": "max-age=10, stale-if-error=60"], false),
      (["Cache-Control": "max-age=10, stale-if-error=100000"], true),
      (["Cache-Control": "max-age=10, must-revalidate"], false),
    ] {
      let clock = WallClock()
      let transport = server { _, index in
        index == 1 ? (200, userJSON, headers) : (500, "{}", [:])
      }
      let network = service(transport, clock)
      _ = try await network.send(GetUser())
      clock.advance(1_000)
      let source = try? await network.send(GetUser()).source
      #expect((source == .stale(age: 1_000)) == standsIn, "\(headers)")
    }

    let refused = server { _, index in
      index == 1 ? (200, userJSON, ["Cache-Control": "max-age=10"]) : (404, "{}", [:])
    }
    let answered = service(refused, clock)
    _ = try await answered.send(GetUser())
    clock.advance(60)
    #expect(await networkError { _ = try await answered.send(GetUser()) }?.status == 404)
  }

  @Test func aTransportFailureIsAnsweredFromTheCacheAndRecordedAsStale() async throws {
    let clock = WallClock()
    let records = RecordBox()
    let transport = MockTransport { request, index in
      guard index == 1 else { throw URLError(.notConnectedToInternet) }
      return try MockTransport.response(
        request, status: 200, body: userJSON, headers: ["ETag": "\"e\""])
    }
    let network = service(transport, clock, records: records)
    _ = try await network.send(GetUser())
    clock.advance(720)
    let answer = try await network.send(GetUser())
    #expect(answer.source == .stale(age: 720) && answer.value.firstName == "Emily")
    #expect(records.all.map(\.source) == [.network, .stale(age: 720)])
  }

  /// A successful change drops what was kept for its URL and for the `Location` it names on
  /// the same origin; another origin's `Location` is left alone.
  @Test func aChangeDropsWhatWasKeptForItsURLs() async throws {
    let clock = WallClock()
    let transport = server { request, _ in
      if request.httpMethod == "POST" {
        return (
          201, "{}",
          ["Location": "/users/1", "Content-Location": "https://elsewhere.example/users/2"]
        )
      }
      return (200, userJSON, ["Cache-Control": "max-age=600"])
    }
    let network = service(transport, clock)
    _ = try await network.send(GetUser(id: 1))
    _ = try await network.send(GetUser(id: 2))
    _ = try await network.send(Request<EmptyResponse>(path: "users/add", method: .post))
    #expect(try await network.send(GetUser(id: 1)).source == .network)
    #expect(try await network.send(GetUser(id: 2)).source == .cache(age: 0))

    _ = try await network.send(Request<EmptyResponse>(path: "users/2", method: .delete))
    #expect(try await network.send(GetUser(id: 2)).source == .network)
  }

  /// A refresh asks the server even when the stored answer is fresh; `bypass` neither reads
  /// nor writes; a request with a bearer token is one user's and is not kept.
  @Test func policiesAndSignedInRequests() async throws {
    let clock = WallClock()
    let transport = server { _, _ in (200, userJSON, ["Cache-Control": "max-age=600"]) }
    let network = service(transport, clock)
    var refresh = Request<TestUser>(path: "users/1")
    _ = try await network.send(refresh)
    refresh.cachePolicy = .revalidate
    #expect(try await network.send(refresh).source == .network)
    refresh.cachePolicy = .bypass
    #expect(try await network.send(refresh).source == .network)
    #expect(transport.requestCount == 3)

    let session = InMemoryTokenStore(
      Credentials(accessToken: "tok-abcdef", refreshToken: "ref-abcdef", origin: exampleOrigin))
    let signedIn = NetworkService(
      options: {
        var options = NetworkOptions(
          baseURL: URL(string: "https://api.example")!, deadline: .seconds(300))
        options.cache = HTTPCache(now: { clock.now })
        return options
      }(), transport: transport,
      authenticator: AuthSession(
        origin: exampleOrigin, store: session,
        refresh: { _ in Credentials(accessToken: "t", refreshToken: "r", origin: exampleOrigin) }),
      clock: ManualClock())
    _ = try await signedIn.send(GetMe())
    #expect(try await signedIn.send(GetMe()).source == .network)
  }

  /// `stale-while-revalidate`: past its freshness but within the window, the stored answer
  /// comes back at once (stale, with its age) and one revalidation runs behind it, however
  /// many reads come meanwhile; the next read is fresh again. Past the window, a read waits
  /// for the server.
  @Test(.timeLimit(.minutes(5)))
  func staleWhileRevalidateAnswersAtOnceAndRevalidatesBehind() async throws {
    let clock = WallClock()
    let gate = Gate()
    let control = ["ETag": "\"1\"", "Cache-Control": "max-age=10, stale-while-revalidate=60"]
    let transport = MockTransport { request, index in
      if index == 1 {
        return try MockTransport.response(request, status: 200, body: userJSON, headers: control)
      }
      if index == 2 { await gate.pass() }  // the background revalidation waits here
      #expect(request.value(forHTTPHeaderField: "If-None-Match") == "\"1\"")
      return try MockTransport.response(request, status: 304, body: "", headers: control)
    }
    let records = RecordBox()
    let network = service(transport, clock, records: records)
    #expect(try await network.send(GetUser()).source == .network)
    clock.advance(30)
    let quick = try await network.send(GetUser())
    #expect(quick.source == .stale(age: 30) && quick.value.firstName == "Emily")
    try await gate.waitUntilEntered()
    #expect(try await network.send(GetUser()).source == .stale(age: 30), "still the stale one")
    gate.open()
    try await waitUntil("the background revalidation") {
      records.all.contains { $0.source == .revalidated }
    }
    #expect(transport.requestCount == 2, "one revalidation for both reads")
    #expect(try await network.send(GetUser()).source == .cache(age: 0), "fresh again")
    #expect(records.all.filter { $0.source?.label == "stale" }.allSatisfy { $0.attempt == 0 })

    clock.advance(10 + 61)
    #expect(try await network.send(GetUser()).source == .revalidated, "past the window: waits")
    #expect(transport.requestCount == 3)
  }

  /// `Vary`: an answer is only for requests that send the same values of the headers it
  /// names.
  /// `freshFor` is the client's lifetime for answers whose server names none: used unsent
  /// within it, revalidated after; the server's own `max-age` and `no-cache` still win, and an
  /// answer with no validator is kept for it too.
  @Test func freshForGivesAnswersWithoutALifetimeOne() async throws {
    let clock = WallClock()
    let transport = server { request, _ in
      if let tag = request.value(forHTTPHeaderField: "If-None-Match") {
        return (304, "", ["ETag": tag])
      }
      return switch request.url?.path ?? "" {
      case "/users/1": (200, userJSON, ["ETag": "\"1\""])
      case "/users/2": (200, userJSON, ["ETag": "\"2\"", "Cache-Control": "max-age=5"])
      case "/users/3": (200, userJSON, ["ETag": "\"3\"", "Cache-Control": "no-cache"])
      default: (200, userJSON, [:])
      }
    }
    let network = service(transport, clock)
    func read(_ id: Int) async throws -> ResponseSource {
      var request = Request<TestUser>(path: "users/\(id)")
      request.cachePolicy = .freshFor(.seconds(30))
      return try await network.send(request).source
    }
    for id in 1...4 { #expect(try await read(id) == .network) }
    clock.advance(10)
    #expect(try await read(1) == .cache(age: 10), "within the client's lifetime")
    #expect(try await read(2) == .revalidated, "the server's max-age=5 wins")
    #expect(try await read(3) == .revalidated, "no-cache wins")
    #expect(try await read(4) == .cache(age: 10), "kept without a validator")
    #expect(try await network.send(GetUser(id: 1)).source == .revalidated, "useCache: none")
    clock.advance(30)
    #expect(try await read(4) == .network, "past it, and nothing to revalidate with")
  }

  @Test func varyKeepsAnswersApart() async throws {
    let clock = WallClock()
    let transport = server { _, _ in
      (200, userJSON, ["Cache-Control": "max-age=600", "Vary": "Accept-Language"])
    }
    let network = service(transport, clock)
    _ = try await network.send(
      Request<TestUser>(path: "users/1", headers: ["Accept-Language": "en"]))
    #expect(
      try await network.send(
        Request<TestUser>(path: "users/1", headers: ["Accept-Language": "en"])
      )
      .source == .cache(age: 0))
    #expect(
      try await network.send(
        Request<TestUser>(path: "users/1", headers: ["Accept-Language": "fr"])
      )
      .source == .network)
  }

  /// The byte budget holds: the least recently used answers go first; hostile numbers in
  /// `Cache-Control` are capped or ignored, never a trap.
  @Test func theBudgetHoldsAndHostileDirectivesAreHarmless() async throws {
    let clock = WallClock()
    let cache = HTTPCache(maxBytes: 1_000, now: { clock.now })
    var options = NetworkOptions(
      baseURL: URL(string: "https://api.example")!, deadline: .seconds(300))
    options.cache = cache
    let body = #"{"id":1,"firstName":"\#(String(repeating: "x", count: 200))"}"#
    let transport = server { _, index in
      let control = index % 2 == 0 ? "max-age=99999999999999999999999" : "max-age=-5, max-age=x"
      return (200, body, ["Cache-Control": control, "ETag": "\"\(index)\""])
    }
    let network = NetworkService(options: options, transport: transport, clock: ManualClock())
    for id in 1...10 { _ = try await network.send(GetUser(id: id)) }
    #expect(cache.byteCount <= 1_000 && cache.count >= 2)
    // The newest is still kept, its absurd max-age capped, not a trap.
    #expect(try await network.send(GetUser(id: 10)).source == .cache(age: 0))
    _ = try await network.send(GetUser(id: 1))  // the oldest went first: asked without a tag
    #expect(transport.requests.last?.value(forHTTPHeaderField: "If-None-Match") == nil)
  }
}

@Suite("HTTP cache on disk: restarts, damage, budget")
struct HTTPCacheDiskTests {
  private static func cache(_ root: String, _ clock: WallClock, maxBytes: Int = 50 << 20)
    -> HTTPCache
  {
    HTTPCache(
      app: "strata-tests", origin: exampleOrigin, maxBytes: maxBytes,
      environment: ["XDG_CACHE_HOME": root, "HOME": root], now: { clock.now })
  }

  private static func network(_ cache: HTTPCache, _ transport: MockTransport) -> NetworkService {
    var options = NetworkOptions(
      baseURL: URL(string: "https://api.example")!, deadline: .seconds(300), retryPolicy: .none)
    options.cache = cache
    return NetworkService(options: options, transport: transport, clock: ManualClock())
  }

  /// Answers to signed-in requests are kept per account, never by token: a refreshed token of
  /// the same user still finds them; another user of the same cache never sees them; the
  /// session's end — a sign-out, or the server rejecting it — removes them, on disk too.
  @Test func signedInAnswersArePrivateToTheirAccount() async throws {
    let root = NSTemporaryDirectory() + "strata-http-cache-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let clock = WallClock()
    let cache = Self.cache(root, clock)
    let transport = server { request, _ in
      let bearer = request.value(forHTTPHeaderField: "Authorization") ?? ""
      let name = bearer.contains("alice") ? "Alice" : "Bob"
      return (200, #"{"id":1,"firstName":"\#(name)"}"#, ["Cache-Control": "private, max-age=600"])
    }
    func signedIn(_ account: String?, token: String) -> (AuthSession, NetworkService) {
      let session = AuthSession(
        origin: exampleOrigin,
        store: InMemoryTokenStore(
          Credentials(
            accessToken: token, refreshToken: "r-" + token, origin: exampleOrigin,
            owner: account.map(DataOwner.account) ?? .device)), cache: cache)
      var options = NetworkOptions(
        baseURL: URL(string: "https://api.example")!, deadline: .seconds(300), retryPolicy: .none)
      options.cache = cache
      return (
        session,
        NetworkService(
          options: options, transport: transport, authenticator: session, clock: ManualClock())
      )
    }
    let (alice, aliceNetwork) = signedIn("alice", token: "tok-alice-1")
    #expect(try await aliceNetwork.send(GetMe()).source == .network)
    #expect(try await aliceNetwork.send(GetMe()).source == .cache(age: 0))
    try await alice.signIn(
      Credentials(accessToken: "tok-alice-2", refreshToken: "r-2", owner: .account("alice")))
    #expect(try await aliceNetwork.send(GetMe()).source == .cache(age: 0), "keyed by account")

    let (bob, bobNetwork) = signedIn("bob", token: "tok-bob")
    let bobsAnswer = try await bobNetwork.send(GetMe())
    #expect(bobsAnswer.source == .network && bobsAnswer.value.firstName == "Bob", "not Alice's")
    #expect(try await bobNetwork.send(GetMe()).value.firstName == "Bob")
    let (_, nobody) = signedIn(nil, token: "tok-alice-3")
    #expect(try await nobody.send(GetMe()).source == .network, "no account: nothing kept")
    #expect(cache.count == 2 && transport.requestCount == 3)

    await alice.signOut()
    #expect(cache.count == 1, "Alice's answers went with her session")
    let directory = try #require(cache.directory)
    let files = try FileManager.default.contentsOfDirectory(atPath: directory)
    let entries = files.filter { $0.hasSuffix(".entry") }
    #expect(entries.count == 1 && !files.joined().contains("alice"), "\(files)")
    #expect(Self.cache(root, clock).count == 1, "on disk too")
    #expect(try await bobNetwork.send(GetMe()).source == .cache(age: 0), "Bob's stay")

    await bob.rejected(refreshedToken: "tok-bob")
    #expect(cache.count == 0 && Self.cache(root, clock).count == 0, "a rejected session's too")
  }

  /// `removeAll(.device)` forgets the answers fetched without a token and nothing of an
  /// account's; `removeAll(.account(…))` the reverse.
  @Test func removingTheDevicesAnswersLeavesEveryAccountsAndTheReverse() async throws {
    let root = NSTemporaryDirectory() + "strata-owners-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let clock = WallClock()
    let cache = Self.cache(root, clock)
    let transport = server { _, _ in
      (200, #"{"id":1,"firstName":"A"}"#, ["Cache-Control": "private, max-age=600"])
    }
    let session = AuthSession(
      origin: exampleOrigin,
      store: InMemoryTokenStore(
        Credentials(
          accessToken: "tok-alice", refreshToken: "r", origin: exampleOrigin,
          owner: .account("alice"))), cache: cache)
    var options = NetworkOptions(
      baseURL: URL(string: "https://api.example")!, deadline: .seconds(300), retryPolicy: .none)
    options.cache = cache
    let network = NetworkService(
      options: options, transport: transport, authenticator: session, clock: ManualClock())
    _ = try await network.send(GetMe())  // alice's
    _ = try await network.send(GetUser())  // shared: no token
    #expect(cache.count == 2)
    cache.removeAll(.device)
    #expect(Self.cache(root, clock).count == 1 && cache.count == 1)
    #expect(try await network.send(GetMe()).source == .cache(age: 0), "alice's stays")
    #expect(try await network.send(GetUser()).source == .network, "the shared one went")
    cache.removeAll(.account("alice"))
    #expect(try await network.send(GetUser()).source == .cache(age: 0), "the shared one stays")
    #expect(try await network.send(GetMe()).source == .network, "alice's went")
  }

  /// `public` lets shared caches keep answers to authorised requests; in this private cache
  /// a signed-in answer marked so is still its account's alone, and a tokenless `private` one
  /// is kept (a private cache may).
  @Test func publicWidensNothingAndPrivateIsKept() async throws {
    let clock = WallClock()
    let cache = HTTPCache(now: { clock.now })
    let transport = server { request, _ in
      let bearer = request.value(forHTTPHeaderField: "Authorization") ?? ""
      let name = bearer.contains("alice") ? "Alice" : bearer.isEmpty ? "Anyone" : "Bob"
      let control = bearer.isEmpty ? "private, max-age=600" : "public, max-age=600"
      return (200, #"{"id":1,"firstName":"\#(name)"}"#, ["Cache-Control": control])
    }
    func network(_ account: String?) -> NetworkService {
      var options = NetworkOptions(
        baseURL: URL(string: "https://api.example")!, deadline: .seconds(300), retryPolicy: .none)
      options.cache = cache
      let session = account.map { account in
        AuthSession(
          origin: exampleOrigin,
          store: InMemoryTokenStore(
            Credentials(
              accessToken: "tok-\(account)", refreshToken: "r", origin: exampleOrigin,
              owner: .account(account))), cache: cache)
      }
      return NetworkService(
        options: options, transport: transport, authenticator: session, clock: ManualClock())
    }
    let alice = network("alice")
    #expect(try await alice.send(GetMe()).source == .network)
    #expect(try await alice.send(GetMe()).source == .cache(age: 0))
    let bob = try await network("bob").send(GetMe())
    #expect(bob.source == .network && bob.value.firstName == "Bob", "Alice's public answer")
    let anyone = network(nil)
    _ = try await anyone.send(GetUser())
    let again = try await anyone.send(GetUser())
    #expect(again.source == .cache(age: 0) && again.value.firstName == "Anyone")
    #expect(transport.requestCount == 3)
  }

  /// What one process kept, the next one has — also offline: its answer stands in.
  @Test func answersSurviveARestartAndStandInOffline() async throws {
    let root = NSTemporaryDirectory() + "strata-http-cache-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let clock = WallClock()
    let online = server { _, _ in (200, userJSON, ["ETag": "\"1\"", "Cache-Control": "max-age=60"])
    }
    let first = Self.cache(root, clock)
    _ = try await Self.network(first, online).send(GetUser())
    let directory = try #require(first.directory)
    #expect(directory.hasPrefix(root + "/strata-tests/http/https_api.example_443"))
    let mode = try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions]
    #expect(mode as? Int == 0o700)

    clock.advance(30)
    let restarted = Self.cache(root, clock)
    #expect(restarted.count == 1)
    let offline = MockTransport { _, _ in throw URLError(.notConnectedToInternet) }
    #expect(try await Self.network(restarted, offline).send(GetUser()).source == .cache(age: 30))
    clock.advance(600)
    let answer = try await Self.network(Self.cache(root, clock), offline).send(GetUser())
    #expect(answer.source == .stale(age: 630) && answer.value.firstName == "Emily")
  }

  /// Two processes share the directory: an answer one of them keeps after the other read the
  /// directory is found by the other (the file decides, not its index), and counted there.
  @Test func anAnswerAnotherProcessKeptIsFound() async throws {
    let root = NSTemporaryDirectory() + "strata-http-cache-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let clock = WallClock()
    let reader = Self.cache(root, clock)
    #expect(reader.count == 0, "its index is read now, before the other process writes")
    let online = server { _, _ in (200, userJSON, ["ETag": "\"1\"", "Cache-Control": "max-age=60"])
    }
    _ = try await Self.network(Self.cache(root, clock), online).send(GetUser())
    let offline = MockTransport { _, _ in throw URLError(.notConnectedToInternet) }
    let answer = try await Self.network(reader, offline).send(GetUser())
    #expect(answer.source == .cache(age: 0) && answer.value.firstName == "Emily")
    #expect(offline.requestCount == 0 && reader.count == 1)
  }

  /// A flipped byte, a file cut short, another key's file under this name: each is a miss
  /// (and is removed), never a crash or a wrong answer.
  @Test func damagedFilesAreMisses() async throws {
    let root = NSTemporaryDirectory() + "strata-http-cache-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let clock = WallClock()
    let online = server { _, _ in (200, userJSON, ["Cache-Control": "max-age=600"]) }
    let offline = MockTransport { _, _ in throw URLError(.notConnectedToInternet) }
    for damage in ["flip", "cut", "empty"] {
      let cache = Self.cache(root, clock)
      cache.removeAll()
      _ = try await Self.network(cache, online).send(GetUser())
      let directory = try #require(cache.directory)
      let name = try #require(
        try FileManager.default.contentsOfDirectory(atPath: directory).first {
          $0.hasSuffix(".entry")
        })
      let path = directory + "/" + name
      var bytes = try #require(FileManager.default.contents(atPath: path))
      switch damage {
      case "flip": bytes[bytes.count - 3] ^= 0x20
      case "cut": bytes = bytes.prefix(bytes.count / 2)
      default: bytes = Data()
      }
      try bytes.write(to: URL(fileURLWithPath: path))
      let reopened = Self.cache(root, clock)
      let error = await networkError {
        _ = try await Self.network(reopened, offline).send(GetUser())
      }
      #expect(error?.kind == .transport(URLError(.notConnectedToInternet)), "\(damage)")
      #expect(!FileManager.default.fileExists(atPath: path), "\(damage)")
      #expect(reopened.count == 0, "\(damage): the index knows it went")
    }
  }

  /// The disk budget holds, counted in the blocks the files take, oldest out first, across a
  /// restart too.
  @Test func theDiskBudgetHolds() async throws {
    let root = NSTemporaryDirectory() + "strata-http-cache-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let clock = WallClock()
    let body = #"{"id":1,"firstName":"\#(String(repeating: "y", count: 400))"}"#
    let online = server { _, _ in (200, body, ["Cache-Control": "max-age=600"]) }
    let budget = 3 * 4_096 + 100  // three small files on a file system of 4 KiB blocks
    let cache = Self.cache(root, clock, maxBytes: budget)
    let network = Self.network(cache, online)
    for id in 1...12 { _ = try await network.send(GetUser(id: id)) }
    let directory = try #require(cache.directory)
    let files = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasSuffix(".entry") }
    let onDisk = files.map { diskUse(directory + "/" + $0) }.reduce(0, +)
    #expect(cache.byteCount == onDisk && onDisk <= budget, "\(onDisk) counted as on disk")
    #expect(files.count == cache.count && cache.count >= 1)
    let reopened = Self.cache(root, clock, maxBytes: budget)
    #expect(reopened.byteCount == onDisk)
    let offline = MockTransport { _, _ in throw URLError(.notConnectedToInternet) }
    #expect(
      try await Self.network(reopened, offline).send(GetUser(id: 12)).source == .cache(age: 0))
    #expect(
      await networkError { _ = try await Self.network(reopened, offline).send(GetUser(id: 1)) }
        != nil)
  }
}

/// The bytes a file takes on disk: its blocks, or its size where the file system reports fewer.
func diskUse(_ path: String) -> Int {
  var info = stat()
  guard stat(path, &info) == 0 else { return 0 }
  return max(Int(info.st_blocks) * 512, Int(info.st_size))
}
