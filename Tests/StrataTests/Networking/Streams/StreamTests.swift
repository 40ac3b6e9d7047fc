import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `NetworkService.stream(_:)` over a mock transport (each answer whole: a connection that
/// ends after its body): the same request path as a send, the element kinds, and an event
/// stream's reconnection.
struct StreamTests {
  private func answer(
    _ request: URLRequest, _ body: String, status: Int = 200,
    type: String = "text/event-stream"
  ) throws -> (Data, HTTPURLResponse) {
    try MockTransport.response(request, status: status, body: body, headers: ["Content-Type": type])
  }

  @Test func linesChunksAndJSONLinesByResponseType() async throws {
    let transport = MockTransport { request, _ in
      try answer(
        request, "{\"id\":1,\"firstName\":\"A\"}\n{\"id\":2,\"firstName\":\"B\"}\n",
        type: "application/x-ndjson")
    }
    let service = makeService(transport)
    var users: [TestUser] = []
    for try await user in service.stream(
      Request<TestUser>(path: "feed"), as: .jsonLines(TestUser.self))
    { users.append(user) }
    #expect(users.map(\.id) == [1, 2])
    var lines: [String] = []
    for try await line in service.stream(Request<String>(path: "feed"), as: .lines) {
      lines.append(line)
    }
    #expect(lines.count == 2)
    var bytes = 0
    for try await chunk in service.stream(Request<Data>(path: "feed"), as: .bytes) {
      bytes += chunk.count
    }
    #expect(bytes == 50)
  }

  @Test func aJSONLineThatDoesNotDecodeNamesItsLine() async {
    let service = makeService(
      MockTransport { request, _ in
        try answer(
          request, "{\"id\":1,\"firstName\":\"A\"}\n{\"id\":\"two\"}\n", type: "application/jsonl")
      })
    var seen = 0
    let error = await networkError {
      for try await _ in service.stream(
        Request<TestUser>(path: "feed"), as: .jsonLines(TestUser.self))
      { seen += 1 }
    }
    #expect(seen == 1)
    guard case .decoding(let failure) = error?.kind else {
      Issue.record("expected a decoding failure, got \(String(describing: error))")
      return
    }
    #expect(failure.codingPath == "line 2.id")
    #expect(error?.request == "GET /feed")
  }

  @Test func nothingIsSentUntilTheFirstElementIsAskedFor() async throws {
    // Lines, not events: an event stream reconnects at once when a mock answer ends.
    let transport = MockTransport { request, _ in try answer(request, "x\n", type: "text/plain") }
    let service = makeService(transport)
    let stream = service.stream(Request<String>(path: "lines"), as: .lines)
    #expect(transport.requestCount == 0)
    var iterator = stream.makeAsyncIterator()
    #expect(try await iterator.next() == "x")
    #expect(try await iterator.next() == nil)
    #expect(transport.requestCount == 1)
  }

  @Test func anEventStreamReconnectsWithLastEventIDAfterTheServersRetry() async throws {
    let transport = MockTransport { request, number in
      number == 1
        ? try answer(request, "retry: 1500\nid: 1\ndata: a\n\nid: 2\ndata: b\n\ndata: cut")
        : try answer(request, "id: 3\ndata: c\n\n")
    }
    let clock = ManualClock()
    let service = makeService(transport, clock: clock)
    var events: [ServerSentEvent] = []
    for try await event in service.stream(Request<Data>(path: "events"), as: .events()) {
      events.append(event)
      if events.count == 3 { break }
    }
    #expect(events.map(\.data) == ["a", "b", "c"])
    #expect(transport.requests.map { $0.value(forHTTPHeaderField: "Last-Event-ID") } == [nil, "2"])
    #expect(clock.sleeps.first == .milliseconds(1500))
  }

  @Test func aRetryFarOverTheCapWaitsOnlyThePolicysMaxDelay() async throws {
    let transport = MockTransport { request, number in
      try answer(request, "retry: 1000000000\ndata: \(number)\n\n")
    }
    let clock = ManualClock()
    let policy = RetryPolicy(maxRetries: 2, maxDelay: .seconds(7))
    let service = makeService(transport, clock: clock, policy: policy)
    var seen = 0
    for try await _ in service.stream(Request<Data>(path: "events"), as: .events()) {
      seen += 1
      if seen == 3 { break }
    }
    // The reader may stop while the next wait has begun: every wait is the cap.
    #expect(clock.sleeps.count >= 2 && clock.sleeps.allSatisfy { $0 == .seconds(7) })
  }

  /// `retry: 0` is not obeyed to the letter: at most four connections a second, and
  /// connections that bring nothing back off as failed attempts do.
  @Test func aRetryOfZeroHasAFloorAndEmptyConnectionsBackOff() async throws {
    let transport = MockTransport { request, number in
      number <= 2
        ? try answer(request, "retry: 0\nid: \(number)\ndata: \(number)\n\n")
        : try answer(request, "retry: 0\n: nothing\n\n")
    }
    let clock = ManualClock()
    let policy = RetryPolicy(
      maxRetries: 3, baseDelay: .seconds(1), maxDelay: .seconds(30), jitter: .none)
    let service = makeService(transport, clock: clock, policy: policy)
    let error = await networkError {
      for try await _ in service.stream(Request<Data>(path: "events"), as: .events()) {}
    }
    #expect(error != nil, "ended after the quiet connections")
    // Two connections with an event each: the floor; then three quiet ones: 1 s, 2 s, 4 s.
    #expect(
      clock.sleeps == [
        .milliseconds(250), .milliseconds(250), .seconds(1), .seconds(2), .seconds(4),
      ],
      "\(clock.sleeps)")
  }

  /// Each kind of stream asks for its own type; a request's own `Accept` is kept.
  @Test func eachKindOfStreamAsksForItsType() async throws {
    let transport = MockTransport { request, _ in
      try answer(request, request.url?.path == "/events" ? "data: a\n\n" : "{\"id\":1}\n")
    }
    let service = makeService(transport, clock: ManualClock())
    for try await _ in service.stream(Request<Data>(path: "events"), as: .events()) { break }
    struct Row: Decodable, Sendable { let id: Int }
    for try await _ in service.stream(Request<Row>(path: "rows"), as: .jsonLines(Row.self)) {}
    var own = Request<Data>(path: "events")
    own.headers["accept"] = "text/event-stream, application/json;q=0.1"
    for try await _ in service.stream(own, as: .events()) { break }
    for try await _ in service.stream(Request<Data>(path: "rows"), as: .lines) {}
    for try await _ in service.stream(Request<Data>(path: "rows"), as: .bytes) {}
    let accepts = transport.requests.map { $0.value(forHTTPHeaderField: "Accept") }
    #expect(
      accepts == [
        "text/event-stream", "application/x-ndjson, application/jsonl, application/json;q=0.5",
        "text/event-stream, application/json;q=0.1", "text/plain, */*;q=0.5", "*/*",
      ])
  }

  /// The first connection asks for what follows the id the reader saw last; a reconnection
  /// asks for what follows the last one the stream gave.
  @Test func theFirstLastEventIDIsTheCallers() async throws {
    let transport = MockTransport { request, number in
      try answer(request, number == 1 ? "id: 8\ndata: a\n\ndata: b\n\n" : "data: c\n\n")
    }
    let service = makeService(transport, clock: ManualClock())
    var events: [ServerSentEvent] = []
    let feed = Request<Data>(path: "events")
    for try await event in service.stream(feed, as: .events(lastEventID: "7")) {
      events.append(event)
      if events.count == 3 { break }
    }
    #expect(transport.requests.map { $0.value(forHTTPHeaderField: "Last-Event-ID") } == ["7", "8"])
    #expect(events.map(\.id) == ["8", "8", "8"], "an event without an id carries the last one")
    for try await _ in service.stream(feed, as: .events(lastEventID: "")) { break }
    #expect(transport.requests.last?.value(forHTTPHeaderField: "Last-Event-ID") == nil)
  }

  /// The observer is told each change once, in order: connecting, open, and on a dropped
  /// connection connecting again; closed last, once, also when the reader stops.
  @Test func anEventStreamsStateIsToldAtEachChange() async throws {
    let transport = MockTransport { request, number in
      number == 2
        ? try answer(request, "busy", status: 503, type: "text/plain")
        : try answer(request, "data: \(number)\n\n")
    }
    let states = Lock<[StreamState]>([])
    let service = makeService(transport, clock: ManualClock())
    var seen: [String] = []
    // Leaving the loop releases the stream (held by nothing else), which ends it.
    for try await event in service.stream(
      Request<Data>(path: "events"), as: .events(),
      state: { state in states.withLock { $0.append(state) } })
    {
      seen.append(event.data)
      if seen.count == 2 { break }
    }
    #expect(seen == ["1", "3"])
    try await waitUntil("closed") { states.withLock { $0.last == .closed } }
    let told = states.withLock { $0 }
    // A third connection may have begun before the reader left: it never opened.
    #expect(
      told == [.connecting, .open, .connecting, .open, .closed]
        || told == [.connecting, .open, .connecting, .open, .connecting, .closed],
      "a 503 retried before the first byte never opens: \(told)")
  }

  /// A stream that cannot open (a 404 for lines) goes from connecting to closed.
  @Test func aStreamThatNeverOpensIsConnectingThenClosed() async throws {
    let transport = MockTransport { request, _ in
      try answer(request, "gone", status: 404, type: "text/plain")
    }
    let states = Lock<[StreamState]>([])
    let stream = makeService(transport).stream(Request<Data>(path: "log"), as: .lines) {
      state in states.withLock { $0.append(state) }
    }
    #expect(await networkError { for try await _ in stream {} }?.status == 404)
    try await waitUntil("closed") { states.withLock { $0.last == .closed } }
    #expect(states.withLock { $0 } == [.connecting, .closed])
  }

  @Test func theReconnectionDelayRule() {
    let policy = RetryPolicy(
      maxRetries: 5, baseDelay: .seconds(1), maxDelay: .seconds(10), jitter: .none)
    let delay = { (server: Int?, quiet: Int) in
      NetworkService.reconnectionDelay(server: server, quiet: quiet, policy: policy)
    }
    #expect(delay(0, 0) == .milliseconds(250) && delay(100, 0) == .milliseconds(250))
    #expect(delay(1_500, 0) == .milliseconds(1_500) && delay(nil, 0) == .seconds(1))
    #expect(delay(1_000_000, 0) == .seconds(10), "the policy's cap")
    #expect(delay(1_500, 3) == .seconds(4), "quiet: the backoff, over the server's word")
    #expect(delay(9_000, 1) == .seconds(9), "the server's, when longer")
  }

  @Test func aServerThatKeepsClosingWithNothingEndsTheStreamWithASentence() async {
    let transport = MockTransport { request, _ in try answer(request, ": only a comment\n\n") }
    let clock = ManualClock()
    let service = makeService(transport, clock: clock, policy: RetryPolicy(maxRetries: 3))
    let error = await networkError {
      for try await _ in service.stream(Request<Data>(path: "events"), as: .events()) {}
    }
    #expect(error?.description == "GET /events: network error: the connection was lost")
    #expect(transport.requestCount == 4)
  }

  @Test func a204OrAnotherContentTypeEndsAnEventStreamCleanly() async throws {
    for (status, type) in [(204, "text/event-stream"), (200, "application/json")] {
      let transport = MockTransport { request, _ in
        try answer(request, status == 204 ? "" : "{}", status: status, type: type)
      }
      var seen = 0
      for try await _ in makeService(transport).stream(Request<Data>(path: "events"), as: .events())
      {
        seen += 1
      }
      #expect(seen == 0)
      #expect(transport.requestCount == 1)
    }
  }

  @Test func a401BeforeTheFirstByteRenewsTheTokenOnce() async throws {
    let auth = FakeAuthenticator(token: "old", refreshed: "new")
    let transport = MockTransport { request, _ in
      request.value(forHTTPHeaderField: "Authorization") == "Bearer new"
        ? try answer(request, "data: mine\n\n") : try answer(request, "", status: 401)
    }
    let service = makeService(transport, authenticator: auth)
    var iterator = service.stream(Request<Data>(path: "events", requiresAuth: true), as: .events())
      .makeAsyncIterator()
    #expect(try await iterator.next()?.data == "mine")
    #expect(auth.refreshCount == 1)
  }

  @Test func whatArrivesAfterSignOutIsNotDelivered() async throws {
    let auth = FakeAuthenticator(token: "t", refreshed: "t2", account: "emily")
    // The sign-out comes once the reader has the first event: an event still on its way when
    // it comes is not delivered either, which would make the test depend on who runs first.
    let firstTaken = Gate()
    let transport = MockTransport { request, number in
      if number > 1 {
        await firstTaken.pass()
        auth.signOut()
      }
      return try answer(request, "id: \(number)\ndata: \(number)\n\n")
    }
    let service = makeService(transport, clock: ManualClock(), authenticator: auth)
    var seen: [String] = []
    let error = await networkError {
      for try await event in service.stream(
        Request<Data>(path: "events", requiresAuth: true), as: .events())
      {
        seen.append(event.data)
        firstTaken.open()
      }
    }
    #expect(seen == ["1"])
    #expect(error?.isUnauthorized == true)
  }

  @Test func recordsCountTheStreamsBytesAndEvents() async throws {
    let records = Lock<[RequestRecord]>([])
    var options = NetworkOptions(baseURL: URL(string: "https://api.example")!, retryPolicy: .none)
    options.observer = CallObserver { record in records.withLock { $0.append(record) } }
    let service = NetworkService(
      options: options,
      transport: MockTransport { request, _ in try answer(request, "data: a\n\ndata: b\n\n") },
      clock: ManualClock())
    var iterator = service.stream(Request<Data>(path: "events"), as: .events()).makeAsyncIterator()
    _ = try await iterator.next()
    _ = try await iterator.next()
    try await waitUntil("the first connection's record") { !records.withLock { $0.isEmpty } }
    let first = records.withLock { $0[0] }
    #expect(first.events == 2)
    #expect(first.bytesReceived == 18)
  }
}

/// A session with one token, renewed to `refreshed`, signed in as `account` until
/// ``signOut()``.
final class FakeAuthenticator: Authenticator, Sendable {
  let origin = exampleOrigin
  private let state: Lock<(token: String?, account: String?, refreshes: Int)>
  private let refreshed: String

  init(token: String, refreshed: String, account: String = "emily") {
    state = Lock((token, account, 0))
    self.refreshed = refreshed
  }

  var refreshCount: Int { state.withLock { $0.refreshes } }

  func signOut() { state.withLock { ($0.token, $0.account) = (nil, nil) } }

  func session() async throws -> SessionMark {
    state.withLock { SessionMark(token: $0.token, owner: DataOwner(account: $0.account)) }
  }

  func refresh(rejectedToken: String) async throws -> String {
    state.withLock {
      $0.refreshes += 1
      $0.token = refreshed
    }
    return refreshed
  }

  func owner() async -> DataOwner { state.withLock { $0.account }.map { .account($0) } ?? .device }
}
