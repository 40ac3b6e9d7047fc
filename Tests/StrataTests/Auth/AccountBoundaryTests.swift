import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

private let meJSON = #"{"id":1,"firstName":"Alice"}"#

/// Every file under `root`, read whole.
private func everyByte(under root: String) -> [(path: String, bytes: Data)] {
  let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
  return names.compactMap { name in
    FileManager.default.contents(atPath: root + "/" + name).map { (name, $0) }
  }
}

private func holds(_ files: [(path: String, bytes: Data)], _ secret: String) -> [String] {
  files.filter { $0.bytes.range(of: Data(secret.utf8)) != nil }.map(\.path)
}

@Suite("Accounts are a boundary: cache, sessions, owners")
struct AccountBoundaryTests {
  /// A cache on disk under `root`, on a clock that stands still: an answer's age never
  /// depends on how busy the machine is.
  private static func diskCache(_ root: String) -> HTTPCache {
    HTTPCache(
      app: "strata-tests", origin: exampleOrigin,
      environment: ["XDG_CACHE_HOME": root, "HOME": root],
      now: { Date(timeIntervalSince1970: 1_800_000_000) })
  }

  private static func session(
    _ account: String?, token: String, cache: HTTPCache?, store: (any TokenStore)? = nil
  ) -> AuthSession {
    AuthSession(
      origin: exampleOrigin,
      store: store
        ?? InMemoryTokenStore(
          Credentials(
            accessToken: token, refreshToken: "refresh-" + token, origin: exampleOrigin,
            owner: account.map(DataOwner.account) ?? .device)), cache: cache)
  }

  private static func network(
    _ transport: MockTransport, _ session: AuthSession?, cache: HTTPCache?,
    baseURL: String = "https://api.example"
  ) -> NetworkService {
    var options = NetworkOptions(
      baseURL: URL(string: baseURL)!, deadline: .seconds(300), retryPolicy: .none)
    options.cache = cache
    return NetworkService(
      options: options, transport: transport, authenticator: session, clock: ManualClock())
  }

  /// Alice's private, cacheable answer, each request first passing `gate` (once it is open,
  /// at once): a sign-out can happen while an answer is on its way.
  private static func gated(_ gate: Gate) -> MockTransport {
    MockTransport { request, _ in
      await gate.pass()
      return try MockTransport.response(
        request, status: 200, body: meJSON, headers: ["Cache-Control": "private, max-age=600"])
    }
  }

  // MARK: No secret in a cache file

  /// A server that varies on `Authorization` and `Cookie`: the entry keeps keyed digests,
  /// never the values — and the digest still tells one token from another.
  @Test func aVaryOnCredentialsKeepsDigestsNeverTheValues() async throws {
    let root = NSTemporaryDirectory() + "strata-boundary-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let cache = Self.diskCache(root)
    let token = "tok-alice-\(UUID().uuidString)"
    let cookie = "sid=cookie-\(UUID().uuidString)"
    let transport = MockTransport { request, _ in
      try MockTransport.response(
        request, status: 200, body: meJSON,
        headers: ["Cache-Control": "private, max-age=600", "Vary": "Authorization, Cookie"])
    }
    let session = Self.session("alice", token: token, cache: cache)
    let network = Self.network(transport, session, cache: cache)
    let me = Request<TestUser>(path: "auth/me", headers: ["Cookie": cookie], requiresAuth: true)

    #expect(try await network.send(me).source == .network)
    #expect(try await network.send(me).source == .cache(age: 0), "the digests match")
    let files = everyByte(under: root)
    #expect(files.contains { $0.path.hasSuffix(".entry") })
    #expect(holds(files, token).isEmpty && holds(files, cookie).isEmpty)
    #expect(files.contains { String(decoding: $0.bytes, as: UTF8.self).contains("hmac-sha256:") })

    // The same account with a refreshed token: the server said the answer depends on it.
    try await session.signIn(
      Credentials(accessToken: token + "-2", refreshToken: "r2", owner: .account("alice")))
    #expect(try await network.send(me).source == .network)
    // Another process sharing the directory computes the same digests.
    let other = Self.network(transport, session, cache: Self.diskCache(root))
    #expect(try await other.send(me).source == .cache(age: 0))
    #expect(transport.requestCount == 2)
  }

  /// `http://user:password@host/`: the credentials name no answer and reach no file; the
  /// same URL without them finds the answer.
  @Test func userInfoInTheBaseURLNeverReachesAKeyOrAFile() async throws {
    let root = NSTemporaryDirectory() + "strata-boundary-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let cache = Self.diskCache(root)
    let transport = MockTransport.successful(
      json: meJSON, headers: ["Cache-Control": "max-age=600"])
    let password = "pw-\(UUID().uuidString)"
    let withCredentials = Self.network(
      transport, nil, cache: cache, baseURL: "https://someone:\(password)@api.example")
    _ = try await withCredentials.send(GetUser())
    let files = everyByte(under: root)
    #expect(!files.isEmpty && holds(files, password).isEmpty && holds(files, "someone").isEmpty)
    let plain = Self.network(transport, nil, cache: cache)
    #expect(try await plain.send(GetUser()).source == .cache(age: 0))
    #expect(HTTPCache.withoutUserInfo("http://a:b@h:1/x?q=@") == "http://h:1/x?q=@")
    #expect(HTTPCache.withoutUserInfo("http://h/x?mail=a@b") == "http://h/x?mail=a@b")
  }

  /// A server that echoes the token back in a cacheable answer: it is kept in memory (where
  /// the token is anyway) and never written, so the token reaches no file; the next process
  /// asks again.
  @Test func anAnswerHoldingAKnownSecretIsKeptInMemoryOnly() async throws {
    let root = NSTemporaryDirectory() + "strata-boundary-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let cache = Self.diskCache(root)
    let token = "tok-echoed-\(UUID().uuidString)"
    let transport = MockTransport { request, _ in
      let bearer = request.value(forHTTPHeaderField: "Authorization") ?? ""
      return try MockTransport.response(
        request, status: 200, body: #"{"id":1,"firstName":"\#(bearer)"}"#,
        headers: ["Cache-Control": "private, max-age=600"])
    }
    let session = Self.session("alice", token: token, cache: cache)
    let network = Self.network(transport, session, cache: cache)
    _ = try await network.send(GetMe())
    #expect(try await network.send(GetMe()).source == .cache(age: 0), "in memory, where it is")
    #expect(holds(everyByte(under: root), token).isEmpty, "never in a file")
    #expect(cache.count == 0)
    let nextProcess = Self.network(transport, session, cache: Self.diskCache(root))
    #expect(try await nextProcess.send(GetMe()).source == .network)
  }

  // MARK: Sign-out is a line in time

  /// A read held in flight while its session ends — signed out, or signed out and in again as
  /// the same account — is neither kept nor returned.
  @Test(arguments: [false, true])
  func anAnswerInFlightAtSignOutIsNeitherKeptNorReturned(signsInAgain: Bool) async throws {
    let root = NSTemporaryDirectory() + "strata-boundary-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let cache = Self.diskCache(root)
    let gate = Gate()
    let transport = Self.gated(gate)
    let session = Self.session("alice", token: "tok-alice", cache: cache)
    let network = Self.network(transport, session, cache: cache)
    let read = Task { try await network.send(GetMe()) }
    try await gate.waitUntilEntered()
    await session.signOut()
    if signsInAgain {
      try await session.signIn(
        Credentials(accessToken: "tok-alice-2", refreshToken: "r2", owner: .account("alice")))
    }
    gate.open()
    let error = await #expect(throws: NetworkError.self) { try await read.value }
    #expect(error?.kind == .unauthorized(.sessionEnded))
    #expect(cache.count == 0)
    #expect(!everyByte(under: root).contains { $0.path.hasSuffix(".entry") })
  }

  /// Another process signs the account out (its cache over the same directory) while this
  /// one's read is in flight: the answer is not kept here either, nor served from memory.
  @Test func anotherProcessesSignOutIsTheSameLine() async throws {
    let root = NSTemporaryDirectory() + "strata-boundary-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let cache = Self.diskCache(root)
    let gate = Gate()
    let transport = Self.gated(gate)
    let session = Self.session("alice", token: "tok-alice", cache: cache)
    let network = Self.network(transport, session, cache: cache)
    let read = Task { try await network.send(GetMe()) }
    try await gate.waitUntilEntered()
    Self.diskCache(root).removeAll(.account("alice"))  // the other process's sign-out
    gate.open()  // and every later request goes at once
    await #expect(throws: NetworkError.self) { try await read.value }
    #expect(!everyByte(under: root).contains { $0.path.hasSuffix(".entry") })

    // Kept before the other process's sign-out: gone from this one's memory too.
    #expect(try await network.send(GetMe()).source == .network)
    #expect(try await network.send(GetMe()).source == .cache(age: 0))
    Self.diskCache(root).removeAll(.account("alice"))
    #expect(try await network.send(GetMe()).source == .network)
  }

  /// The other process's sign-out lands just before this one writes an answer, or between the
  /// write and its check: the file it wrote is removed either way, so nothing of the account
  /// outlives the sign-out.
  @Test(arguments: [false, true])
  func aSignOutAroundAWriteLeavesNoFile(beforeTheWrite: Bool) async throws {
    let root = NSTemporaryDirectory() + "strata-boundary-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let cache = Self.diskCache(root)
    let transport = MockTransport.successful(
      json: meJSON, headers: ["Cache-Control": "private, max-age=600"])
    let network = Self.network(
      transport, Self.session("alice", token: "tok-alice", cache: cache), cache: cache)
    let other = Self.diskCache(root)
    let signOutElsewhere: @Sendable () -> Void = { other.removeAll(.account("alice")) }
    // Before the write, the other process's sign-out finds no file to remove: the check after
    // the write must. After it, either finds it.
    _ = try await (beforeTheWrite ? HTTPCache.$beforeWrite : HTTPCache.$afterWrite).withValue(
      signOutElsewhere
    ) { try await network.send(GetMe()) }
    #expect(!everyByte(under: root).contains { $0.path.hasSuffix(".entry") })
    #expect(cache.count == 0)
  }

  // MARK: Sessions

  /// Signing in as someone else ends the previous session as a sign-out does: its answers go,
  /// and the event says why; the same account signing in again keeps them.
  @Test(.timeLimit(.minutes(5)))  // a hang guard: the events below may never come
  func signingInAsAnotherAccountEndsThePreviousSession() async throws {
    let cache = HTTPCache(now: { Date(timeIntervalSince1970: 1_800_000_000) })
    let transport = MockTransport.successful(
      json: meJSON, headers: ["Cache-Control": "private, max-age=600"])
    let session = Self.session("alice", token: "tok-alice", cache: cache)
    let events = session.updates()
    let network = Self.network(transport, session, cache: cache)
    _ = try await network.send(GetMe())
    try await session.signIn(
      Credentials(accessToken: "tok-alice-2", refreshToken: "r", owner: .account("alice")))
    #expect(cache.count == 1, "the same account: its answers stay")
    try await session.signIn(
      Credentials(accessToken: "tok-bob", refreshToken: "r", owner: .account("bob")))
    #expect(cache.count == 0, "Alice's answers went with her session")
    var seen: [AuthEvent] = []
    for await event in events {
      seen.append(event)
      if seen.count == 3 { break }
    }
    #expect(seen == [.signedIn, .signedOut(.switchedAccount), .signedIn])
  }

  /// A session file other users can read is refused, yet a sign-out removes it and the
  /// answers of the account it names; a sign-in as another account does the same.
  @Test(arguments: [false, true])
  func anUnusableSessionFileIsForgottenAllTheSame(bySigningIn: Bool) async throws {
    let root = NSTemporaryDirectory() + "strata-boundary-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let cache = HTTPCache()
    let store = FileTokenStore(
      app: "strata-tests", origin: exampleOrigin, environment: ["XDG_CONFIG_HOME": root])
    try store.save(
      Credentials(
        accessToken: "tok-alice", refreshToken: "r", origin: exampleOrigin, owner: .account("alice")
      ))
    let transport = MockTransport.successful(
      json: meJSON, headers: ["Cache-Control": "private, max-age=600"])
    _ = try await Self.network(
      transport, Self.session("alice", token: "tok-alice", cache: cache), cache: cache
    ).send(GetMe())
    #expect(cache.count == 1)
    chmod(store.path, 0o644)

    let session = Self.session(nil, token: "", cache: cache, store: store)
    #expect(await !session.isSignedIn, "a readable file is not trusted")
    #expect(store.storedOwner() == .account("alice"))
    if bySigningIn {
      try await session.signIn(
        Credentials(accessToken: "tok-bob", refreshToken: "r", owner: .account("bob")))
      #expect(try store.load()?.owner == .account("bob"))
    } else {
      await session.signOut()
      #expect(!FileManager.default.fileExists(atPath: store.path))
    }
    #expect(cache.count == 0, "the account the file named lost its answers")
  }

  // MARK: Owners

  /// A store's changes go only in its owner's session: while another account is signed in
  /// nothing is sent and the change waits, not counted as an attempt; the device's go only
  /// signed out, and never with a token.
  @Test func aStoresChangesGoOnlyInItsOwnersSession() async throws {
    let root = NSTemporaryDirectory() + "strata-boundary-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let transport = MockTransport.successful(json: "{}", status: 201)
    let session = Self.session("bob", token: "tok-bob", cache: nil)
    let network = Self.network(transport, session, cache: nil)
    let send: @Sendable (OutboxEntry) async throws -> LocalStore<String>.Settled? = { entry in
      _ = try await network.send(
        Request<EmptyResponse>(
          path: "posts/add", method: .post, body: .json(["title": "t"]),
          idempotencyKey: entry.idempotencyKey))
      return nil
    }
    let alices = LocalStore<String>(
      app: "strata-tests", origin: exampleOrigin, name: "posts", owner: .account("alice"),
      directory: root)
    let devices = LocalStore<String>(
      app: "strata-tests", origin: exampleOrigin, name: "posts", owner: .device, directory: root)
    try await alices.enqueue { _, _ in
      .append(kind: "post.create", payload: Data("a".utf8), showing: "Alice's")
    }
    try await devices.enqueue { _, _ in
      .append(kind: "post.create", payload: Data("d".utf8), showing: "Device's")
    }
    #expect(try await devices.records().map(\.record.value) == ["Device's"], "files apart")

    _ = try await alices.sync(send: send)
    _ = try await devices.sync(send: send)
    #expect(transport.requestCount == 0, "Bob's session sends neither")
    #expect(try await alices.outbox().map(\.attempts) == [0])
    #expect(try await alices.outbox().map(\.status) == [.pending])

    try await session.signIn(
      Credentials(accessToken: "tok-alice", refreshToken: "r", owner: .account("alice")))
    _ = try await alices.sync(send: send)
    #expect(try await alices.outbox().map(\.status) == [.synced])
    #expect(transport.requestCount == 1)

    await session.signOut()
    _ = try await devices.sync(send: send)
    #expect(try await devices.outbox().map(\.status) == [.synced])
    #expect(transport.requests.last?.value(forHTTPHeaderField: "Authorization") == nil)

    // Work for the device never carries a token, even to an endpoint that wants one.
    try await session.signIn(Credentials(accessToken: "tok-bob", refreshToken: "r"))
    let error = await #expect(throws: NetworkError.self) {
      try await DataOwner.$acting.withValue(.device) { try await network.send(GetMe()) }
    }
    #expect(error?.kind == .unauthorized(.sessionEnded) && transport.requestCount == 2)
  }

  /// A sync runs in one process while another, sharing the session file, signs out (then in
  /// as someone else) as the first change is being sent: what is left is not sent — not under
  /// the old token, not under the new account's — and waits, pending, for its owner.
  @Test(arguments: [false, true])
  func anotherProcessesSignOutStopsARunningSync(signsInAsAnother: Bool) async throws {
    let root = NSTemporaryDirectory() + "strata-boundary-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let file = root + "/sessions/api.json"
    let alice = Credentials(
      accessToken: "tok-alice", refreshToken: "r", origin: exampleOrigin, owner: .account("alice"))
    try FileTokenStore(path: file).save(alice)
    let gate = Gate()
    let transport = MockTransport { request, _ in
      await gate.pass()
      return try MockTransport.response(request, status: 201)
    }
    let session = Self.session(nil, token: "", cache: nil, store: FileTokenStore(path: file))
    let events = session.updates()
    let network = Self.network(transport, session, cache: nil)
    let store = LocalStore<String>(
      app: "strata-tests", origin: exampleOrigin, name: "posts", owner: .account("alice"),
      directory: root)
    for text in ["one", "two", "three"] {
      try await store.enqueue { _, _ in
        .append(kind: "post.create", payload: Data(text.utf8), showing: text)
      }
    }
    let syncing = Task {
      try await store.sync { entry in
        _ = try await network.send(
          Request<EmptyResponse>(
            path: "posts/add", method: .post, requiresAuth: true,
            idempotencyKey: entry.idempotencyKey))
        return nil
      }
    }
    try await gate.waitUntilEntered()
    // The other process: its own session over the same file.
    let other = AuthSession(origin: exampleOrigin, store: FileTokenStore(path: file))
    await other.signOut()
    if signsInAsAnother {
      try await other.signIn(
        Credentials(accessToken: "tok-bob", refreshToken: "r", owner: .account("bob")))
    }
    gate.open()
    let outcomes = try await syncing.value
    #expect(outcomes.map(\.entry.status) == [.synced], "the one in flight had gone out")
    #expect(transport.requestCount == 1, "nothing after the sign-out")
    #expect(try await store.outbox().map(\.status) == [.synced, .pending, .pending])
    #expect(try await store.outbox().map(\.attempts) == [1, 0, 0])
    #expect(await session.owner() == (signsInAsAnother ? .account("bob") : .device))
    var iterator = events.makeAsyncIterator()
    #expect(await iterator.next() == .signedOut(.endedElsewhere))
  }

  /// The session a request goes out in is asked for once, in one piece (token and owner), and
  /// its mark — not the authenticator — says when the answer arrives whether it still holds.
  @Test func anAuthorisedRequestAsksForItsSessionOnce() async throws {
    let counting = Counting(current: true)
    let (network, transport, _) = Self.counted(counting)
    _ = try await network.send(GetMe())
    #expect(counting.asked == (sessions: 1, owners: 0, checks: 1))
    #expect(transport.requests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer tok")
  }

  /// A mark that says its session has ended drops the answer, unkept; a mark that cannot say
  /// has the authenticator asked again, and a changed owner drops it too.
  @Test func anAnswerForASessionThatEndedIsDropped() async throws {
    for counting in [Counting(current: false), Counting(current: nil, ownerAfter: "bob")] {
      let (network, transport, cache) = Self.counted(counting)
      let error = await #expect(throws: NetworkError.self) { try await network.send(GetMe()) }
      #expect(error?.kind == .unauthorized(.sessionEnded))
      #expect(transport.requestCount == 1)
      #expect(cache.lookUp(transport.requests[0], owner: .account("alice")) == nil, "nothing kept")
    }
  }

  /// A service with a cache, signed by `counting`.
  private static func counted(_ counting: Counting) -> (NetworkService, MockTransport, HTTPCache) {
    let transport = MockTransport.successful(json: meJSON)
    var options = NetworkOptions(baseURL: URL(string: "https://api.example")!, retryPolicy: .none)
    let cache = HTTPCache()
    options.cache = cache
    let network = NetworkService(
      options: options, transport: transport, authenticator: counting, clock: ManualClock())
    return (network, transport, cache)
  }

  /// Counts what the service asks of it: sessions, owners, and checks of a mark.
  final class Counting: Authenticator, Sendable {
    let origin = exampleOrigin
    private let counts = Lock((sessions: 0, owners: 0, checks: 0))
    private let current: Bool?
    private let ownerAfter: String?

    init(current: Bool?, ownerAfter: String? = nil) {
      (self.current, self.ownerAfter) = (current, ownerAfter)
    }

    var asked: (sessions: Int, owners: Int, checks: Int) { counts.withLock { $0 } }

    func session() async throws -> SessionMark {
      let first = counts.withLock { counts in
        counts.sessions += 1
        return counts.sessions == 1
      }
      let owner = DataOwner.account(first ? "alice" : ownerAfter ?? "alice")
      guard let current else { return SessionMark(token: "tok", owner: owner) }
      return SessionMark(token: "tok", owner: owner) { [counts] in
        counts.withLock { $0.checks += 1 }
        return current
      }
    }
    func refresh(rejectedToken: String) async throws -> String { "tok" }
    func owner() async -> DataOwner {
      counts.withLock { $0.owners += 1 }
      return .account("alice")
    }
  }

  /// An app's own sync loop acts as an owner with `DataOwner.run`: its work goes out only in
  /// that owner's session, and the device's never with a token; outside `run`, nothing is
  /// asked of the owner.
  @Test func workRunAsAnOwnerGoesOutOnlyInThatOwnersSession() async throws {
    let transport = MockTransport.successful(json: meJSON)
    let session = Self.session("bob", token: "tok-bob", cache: nil)
    let network = Self.network(transport, session, cache: nil)
    let asAlice = await #expect(throws: NetworkError.self) {
      try await DataOwner.account("alice").run { try await network.send(GetMe()) }
    }
    #expect(asAlice?.kind == .unauthorized(.sessionEnded) && transport.requestCount == 0)
    let asDevice = await #expect(throws: NetworkError.self) {
      try await DataOwner.device.run { try await network.send(GetMe()) }
    }
    #expect(asDevice?.kind == .unauthorized(.sessionEnded) && transport.requestCount == 0)
    let asBob = try await DataOwner.account("bob").run { try await network.send(GetMe()) }
    #expect(asBob.status == 200 && transport.requestCount == 1)
    _ = try await network.send(GetMe())  // no owner named: the session's own request
    #expect(transport.requestCount == 2)
  }

  /// Two accounts never share a directory, whatever their names; a plain name is kept as it is.
  @Test func everyAccountHasADirectoryOfItsOwn() {
    let names = ["user-1", "User-1", "a/b", "a_b", "a.b", "..", "", "émilie", "EMILY"]
    let components = names.map(AppDirectories.component(account:))
    #expect(Set(components).count == names.count, "\(components)")
    #expect(AppDirectories.component(account: "user-1") == "user-1")
    #expect(components.allSatisfy { !$0.contains("/") && $0 != ".." && !$0.isEmpty })
  }
}
