import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Retry and backoff")
struct RetryTests {
  @Test func twoFailuresThenSuccessWaitsOneThenTwoSeconds() async throws {
    let transport = MockTransport.statuses([503, 503, 200], body: userJSON)
    let clock = ManualClock()
    let user = try await makeService(transport, clock: clock).send(GetUser()).value
    #expect(user == TestUser(id: 1, firstName: "Emily"))
    #expect(transport.requestCount == 3)
    #expect(clock.sleeps == [.seconds(1), .seconds(2)])
  }

  @Test func fourFailuresMeanFourAttemptsThenTheServerError() async throws {
    let transport = MockTransport.statuses([503])
    let clock = ManualClock()
    let error = await networkError {
      _ = try await makeService(transport, clock: clock).send(GetUser())
    }
    guard case .server(let status, _) = error?.kind else {
      Issue.record("expected .server, got \(String(describing: error))")
      return
    }
    #expect(status == 503)
    #expect(transport.requestCount == 4)
    #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(4)])
  }

  @Test func postIsNotRetried() async throws {
    let transport = MockTransport.statuses([503])
    let error = await networkError { _ = try await makeService(transport).send(CreateThing()) }
    #expect(error?.status == 503)
    #expect(transport.requestCount == 1)
  }

  /// Nothing passes a policy: the service's default one retries a POST that carries an
  /// `Idempotency-Key` (with the same key), and only such a POST.
  @Test func aKeyedPostIsRetriedByTheDefaultPolicy() async throws {
    struct KeyedCreate: Endpoint {
      var request: Request<EmptyResponse> {
        Request(path: "things", method: .post, idempotencyKey: "key-1")
      }
    }
    let base = try #require(URL(string: "https://api.example"))
    let transport = MockTransport.statuses([503, 503, 201])
    let clock = ManualClock()
    let service = NetworkService(
      options: NetworkOptions(baseURL: base, deadline: .seconds(300)), transport: transport,
      clock: clock)
    _ = try await service.send(KeyedCreate())
    #expect(transport.requestCount == 3)
    #expect(
      transport.requests.allSatisfy { $0.value(forHTTPHeaderField: "Idempotency-Key") == "key-1" })
    #expect(clock.sleeps.count == 2, "the default backoff, on the manual clock")

    let unkeyed = MockTransport.statuses([503, 201])
    let error = await networkError {
      _ = try await NetworkService(
        options: NetworkOptions(baseURL: base, deadline: .seconds(300)), transport: unkeyed,
        clock: ManualClock()
      ).send(CreateThing())
    }
    #expect(error?.status == 503 && unkeyed.requestCount == 1)
  }

  /// A keyed DELETE whose first attempt may have arrived (the connection dropped, a 502) and
  /// whose retry is answered 404 or 410: the first attempt deleted it. Done, not a failure —
  /// but a 404 to a first attempt, or after one that cannot have arrived, is the server's.
  @Test(arguments: [404, 410])
  func aRetriedDeletionAnsweredNotThereIsDone(_ status: Int) async throws {
    let base = try #require(URL(string: "https://api.example"))
    let delete = Request<EmptyResponse>(path: "things/1", method: .delete, idempotencyKey: "k")
    func service(_ transport: MockTransport) -> NetworkService {
      NetworkService(
        options: NetworkOptions(baseURL: base, deadline: .seconds(300)), transport: transport,
        clock: ManualClock())
    }
    let lostAnswer = MockTransport { request, attempt in
      if attempt == 1 { throw URLError(.networkConnectionLost) }
      return try MockTransport.response(request, status: status, body: #"{"message":"gone"}"#)
    }
    let answer = try await service(lostAnswer).send(delete)
    #expect(answer.status == status && lostAnswer.requestCount == 2)
    let after502 = MockTransport.statuses([502, status])
    #expect(try await service(after502).send(delete).status == status)

    let first = MockTransport.statuses([status])
    #expect(await networkError { _ = try await service(first).send(delete) }?.status == status)
    let neverArrived = MockTransport { request, attempt in
      if attempt == 1 { throw URLError(.cannotConnectToHost) }
      return try MockTransport.response(request, status: status)
    }
    #expect(
      await networkError { _ = try await service(neverArrived).send(delete) }?.status == status)
    let put = Request<EmptyResponse>(path: "things/1", method: .put, idempotencyKey: "k")
    let putLost = MockTransport.statuses([502, status])
    #expect(await networkError { _ = try await service(putLost).send(put) }?.status == status)
  }

  /// The default encoder sorts keys: a value is the same bytes in every process, so a keyed
  /// write resent by another run is byte for byte the request the server saw first.
  @Test func aBodyIsTheSameBytesWhateverTheDeclarationOrder() async throws {
    struct Change: Encodable, Sendable {
      let zeta = 1
      let alpha = "a"
      let mid = [true]
    }
    let transport = MockTransport.statuses([201])
    let service = NetworkService(
      options: NetworkOptions(baseURL: try #require(URL(string: "https://api.example"))),
      transport: transport, clock: ManualClock())
    _ = try await service.send(
      Request<EmptyResponse>(path: "c", method: .post, body: .json(Change()), idempotencyKey: "k"))
    let sent = try #require(transport.requests.first?.httpBody)
    #expect(String(decoding: sent, as: UTF8.self) == #"{"alpha":"a","mid":[true],"zeta":1}"#)
  }

  @Test func postIsRetriedWhenThePolicySaysSo() async throws {
    let transport = MockTransport.statuses([503, 201])
    let policy = RetryPolicy(retryableMethods: [.get, .post])
    _ = try await makeService(transport, policy: policy).send(CreateThing())
    #expect(transport.requestCount == 2)
  }

  @Test(arguments: [400, 403, 404, 409, 422])
  func clientErrorsAreNotRetried(_ status: Int) async throws {
    let transport = MockTransport.statuses([status], body: #"{"title":"Nope","detail":"nope"}"#)
    let error = await networkError { _ = try await makeService(transport).send(GetUser()) }
    #expect(error?.status == status)
    #expect(error?.serverMessage == "nope")
    #expect(transport.requestCount == 1)
  }

  @Test(arguments: [408, 429, 500, 502, 504])
  func retryableStatusesAreRetried(_ status: Int) async throws {
    let transport = MockTransport.statuses([status, 200], body: userJSON)
    _ = try await makeService(transport).send(GetUser())
    #expect(transport.requestCount == 2)
  }

  @Test func decodingErrorsAreNotRetried() async throws {
    let transport = MockTransport.successful(json: #"{"id":"one"}"#)
    let error = await networkError { _ = try await makeService(transport).send(GetUser()) }
    guard case .decoding(let failure) = error?.kind else {
      Issue.record("expected .decoding, got \(String(describing: error))")
      return
    }
    #expect(failure.codingPath == "id")
    #expect(transport.requestCount == 1)
  }

  @Test func transportTimeoutIsRetried() async throws {
    let transport = MockTransport { request, index in
      if index == 1 { throw URLError(.timedOut) }
      return try MockTransport.response(request, status: 200, body: userJSON)
    }
    let clock = ManualClock()
    _ = try await makeService(transport, clock: clock).send(GetUser())
    #expect(transport.requestCount == 2)
    #expect(clock.sleeps == [.seconds(1)])
  }

  @Test func nonTransientTransportErrorsAreNotRetried() async throws {
    let transport = MockTransport.failing(URLError(.secureConnectionFailed))
    let error = await networkError { _ = try await makeService(transport).send(GetUser()) }
    guard case .transport(let urlError) = error?.kind else {
      Issue.record("expected .transport, got \(String(describing: error))")
      return
    }
    #expect(urlError.code == .secureConnectionFailed)
    #expect(transport.requestCount == 1)
  }

  @Test func retryAfterSecondsIsHonoured() async throws {
    let transport = MockTransport.statuses(
      [503, 200], body: userJSON, headers: ["Retry-After": "3"])
    let clock = ManualClock()
    _ = try await makeService(transport, clock: clock).send(GetUser())
    #expect(clock.sleeps == [.seconds(3)])
  }

  @Test func retryAfterOverTheCapIsCapped() async throws {
    let transport = MockTransport.statuses(
      [429, 200], body: userJSON, headers: ["Retry-After": "120"])
    let clock = ManualClock()
    _ = try await makeService(transport, clock: clock, policy: RetryPolicy(maxDelay: .seconds(10)))
      .send(GetUser())
    #expect(clock.sleeps == [.seconds(10)])
  }

  @Test func retryAfterHTTPDate() throws {
    let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
    #expect(RetryPolicy.parseRetryAfter("Tue, 14 Nov 2023 22:13:27 GMT", now: now) == .seconds(7))
    #expect(RetryPolicy.parseRetryAfter("Tue, 14 Nov 2023 22:00:00 GMT", now: now) == .zero)
    // The two obsolete forms a recipient must still accept (RFC 9110 §5.6.7).
    #expect(
      RetryPolicy.parseRetryAfter("Tuesday, 14-Nov-23 22:13:30 GMT", now: now) == .seconds(10))
    #expect(RetryPolicy.parseRetryAfter("Tue Nov 14 22:13:25 2023", now: now) == .seconds(5))
    #expect(RetryPolicy.parseRetryAfter("Tue, 32 Nov 2023 22:13:27 GMT", now: now) == nil)
    #expect(RetryPolicy.parseRetryAfter(" 42 ") == .seconds(42))
    #expect(RetryPolicy.parseRetryAfter("soon") == nil)
    #expect(RetryPolicy.parseRetryAfter("-1") == nil)
    #expect(RetryPolicy.parseRetryAfter("+5") == nil, "delay-seconds is 1*DIGIT")
  }

  @Test func exponentialDelaysAreCapped() {
    let policy = RetryPolicy(maxRetries: 5, baseDelay: .seconds(10), maxDelay: .seconds(15))
    #expect(
      (1...4).map { policy.delay(forRetry: $0) } == [
        .seconds(10), .seconds(15), .seconds(15), .seconds(15),
      ])
  }

  @Test func jitterStaysWithinItsBounds() {
    let full = RetryPolicy(baseDelay: .seconds(2), jitter: .full)
    let equal = RetryPolicy(baseDelay: .seconds(2), jitter: .equal)
    var fullValues = Set<Duration>()
    for _ in 0..<500 {
      let f = full.delay(forRetry: 2)
      let e = equal.delay(forRetry: 2)
      #expect(f >= .zero && f <= .seconds(4))
      #expect(e >= .seconds(2) && e <= .seconds(4))
      fullValues.insert(f)
    }
    #expect(fullValues.count > 100, "jitter actually varies")
  }

  @Test func deadlineSpanningRetriesStopsRetrying() async throws {
    let transport = MockTransport.statuses([503])
    let clock = ManualClock()
    let error = await networkError {
      _ = try await makeService(transport, clock: clock, timeout: .seconds(5)).send(GetUser())
    }
    #expect(error?.status == 503)
    #expect(clock.sleeps == [.seconds(1), .seconds(2)])
    #expect(transport.requestCount == 3)
  }

  /// A 401 to a request that carried no token says "sign in", not "the session was rejected
  /// after a refresh": nothing was refreshed, nothing retried.
  @Test func a401WithoutASessionIsItsOwnReason() async throws {
    let transport = MockTransport.statuses([401])
    let error = await networkError { _ = try await makeService(transport).send(GetUser()) }
    #expect(error?.kind == .unauthorized(.signInRequired), "\(String(describing: error))")
    #expect(error?.description.contains("requires signing in") == true)
    #expect(transport.requestCount == 1)
  }

  @Test func deadlineAlreadyPassedSendsNothing() async throws {
    let transport = MockTransport.successful(json: userJSON)
    let error = await networkError {
      _ = try await makeService(transport, timeout: .zero).send(GetUser())
    }
    #expect(error?.kind == .deadlineExceeded, "\(String(describing: error))")
    #expect(transport.requestCount == 0)
  }

  @Test func cancellingDuringBackoffEndsAtOnceWithCancellationError() async throws {
    let transport = MockTransport.statuses([503])
    let clock = ManualClock(suspendsSleeps: true)
    let service = makeService(transport, clock: clock)
    let task = Task { try await service.send(GetUser()) }
    while clock.suspendedCount == 0 { await Task.yield() }
    task.cancel()
    let result = await task.result
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(transport.requestCount == 1)
    #expect(clock.sleeps == [.seconds(1)])
  }

  @Test func theRecordStreamIsToldOfTheRetryBeforeTheWait() async throws {
    let told = Lock<[(RequestRecord, [Duration])]>([])
    let clock = ManualClock()
    var configuration = NetworkOptions(baseURL: URL(fileURLWithPath: "/"), deadline: .seconds(300))
    configuration.baseURL = URL(string: "https://api.example") ?? configuration.baseURL
    configuration.observer = CallObserver { record in
      told.withLock { $0.append((record, clock.sleeps)) }
    }
    let service = NetworkService(
      options: configuration, transport: MockTransport.statuses([503, 200], body: userJSON),
      clock: clock)
    _ = try await service.send(GetUser())
    let records = told.withLock { $0 }
    #expect(records.count == 2)
    let retry = try #require(records.first?.0.retry)
    #expect(retry.number == 1 && retry.maxRetries == 3 && retry.reason == "503")
    #expect(retry.delayMilliseconds == 1000)
    #expect(records.first?.1 == [], "told before the wait")
    #expect(records.first?.0.request == "GET /users/1")
    #expect(records.last?.0.retry == nil)
  }

  @Test func retriesAreLoggedAtInfo() async throws {
    let capture = CapturingLogSink()
    let transport = MockTransport.statuses([503, 503, 200], body: userJSON)
    try await Log.withScope(sink: capture, levels: LogThresholds(global: .info)) {
      _ = try await makeService(transport).send(GetUser())
    }
    #expect(
      capture.messages == [
        "retry 1/3 in 1.0s: GET /users/1 → 503", "retry 2/3 in 2.0s: GET /users/1 → 503",
      ])
  }

  /// A call that fails for good says so once, at `error`, naming the call; its retries were
  /// `info`, and nothing else is logged above it.
  @Test func aFinalFailureIsLoggedOnceAtError() async throws {
    let capture = CapturingLogSink()
    let transport = MockTransport.statuses([503, 503, 503, 503], body: "{}")
    await Log.withScope(sink: capture, levels: LogThresholds(global: .info)) {
      _ = await networkError { _ = try await makeService(transport).send(GetUser()) }
    }
    let errors = capture.records(level: .error)
    #expect(errors.count == 1 && errors.first?.message.hasPrefix("GET /users/1 failed: ") == true)
    #expect(capture.records.filter { $0.level > .info && $0.level != .error }.isEmpty)
    #expect(capture.records(level: .info).count == 3, "\(capture.messages)")
  }
}

/// Jitter through the service, not only `RetryPolicy.delay`: the waits a real call makes are
/// spread within their bounds (full: 0…cap; equal: cap/2…cap), so a fleet does not retry in
/// lockstep — and a policy without jitter waits exactly the cap.
@Suite("Retry jitter through NetworkService.send")
struct RetryJitterTests {
  static func waits(_ jitter: RetryPolicy.Jitter, calls: Int = 40) async throws -> [[Duration]] {
    var all: [[Duration]] = []
    for _ in 0..<calls {
      let clock = ManualClock()
      let policy = RetryPolicy(
        maxRetries: 3, baseDelay: .seconds(1), maxDelay: .seconds(3), jitter: jitter)
      let transport = MockTransport.statuses([503, 503, 503, 200], body: userJSON)
      _ = try await makeService(transport, clock: clock, policy: policy).send(GetUser())
      #expect(transport.requestCount == 4)
      all.append(clock.sleeps)
    }
    return all
  }

  static let caps: [Duration] = [.seconds(1), .seconds(2), .seconds(3)]  // 1, 2, 4 capped at 3

  @Test func fullJitterWaitsAnywhereUpToTheCap() async throws {
    let all = try await Self.waits(.full)
    for waits in all {
      #expect(waits.count == 3)
      for (wait, cap) in zip(waits, Self.caps) { #expect(wait >= .zero && wait <= cap) }
    }
    #expect(Set(all.map { $0[2] }).count > 10, "spread, not one value")
    #expect(all.contains { $0[2] < .seconds(1) } && all.contains { $0[2] > .seconds(2) })
  }

  @Test func equalJitterWaitsBetweenHalfTheCapAndTheCap() async throws {
    let all = try await Self.waits(.equal)
    for waits in all {
      for (wait, cap) in zip(waits, Self.caps) { #expect(wait >= cap / 2 && wait <= cap) }
    }
    #expect(Set(all.map { $0[1] }).count > 10, "spread, not one value")
  }

  @Test func noJitterWaitsExactlyTheCap() async throws {
    for waits in try await Self.waits(.none, calls: 3) { #expect(waits == Self.caps) }
  }
}
