import Foundation
import Strata
import StrataConcurrency
import StrataSandbox
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Counts attempts and remembers what each saw.
private final class AttemptCounter: HTTPMiddleware, Sendable {
  let seen = Lock<[RequestAttempt]>([])
  var attempts: [RequestAttempt] { seen.withLock { $0 } }

  func intercept(
    _ request: URLRequest, body: HTTPBody?, attempt: RequestAttempt, next: HTTPMiddlewareNext
  ) async throws -> (HTTPURLResponse, HTTPBody) {
    seen.withLock { $0.append(attempt) }
    return try await next(request, body)
  }
}

/// Appends its name to a header, to show the order middleware runs in.
private struct Tag: HTTPMiddleware {
  let name: String
  func intercept(
    _ request: URLRequest, body: HTTPBody?, attempt: RequestAttempt, next: HTTPMiddlewareNext
  ) async throws -> (HTTPURLResponse, HTTPBody) {
    var request = request
    request.setValue(
      (request.value(forHTTPHeaderField: "X-Order").map { $0 + "," } ?? "") + name,
      forHTTPHeaderField: "X-Order")
    return try await next(request, body)
  }
}

/// Keeps the records ``NetworkOptions/observer`` is told.
final class RecordCollector: Sendable {
  private let kept = Lock<[RequestRecord]>([])
  var records: [RequestRecord] { kept.withLock { $0 } }
  var sink: @Sendable (RequestRecord) -> Void {
    { [kept] record in kept.withLock { $0.append(record) } }
  }
}

@Suite("Middleware and request records")
struct MiddlewareTests {
  static func service(
    _ transport: any HTTPTransport, middleware: [any HTTPMiddleware],
    requestLog: RecordCollector? = nil, baseURL: URL = URL(string: "https://api.example")!
  ) -> NetworkService {
    var configuration = NetworkOptions(
      baseURL: baseURL, deadline: .seconds(300), userAgent: "StrataTests/1")
    configuration.middleware = middleware
    configuration.observer = requestLog.map { CallObserver($0.sink) }
    return NetworkService(options: configuration, transport: transport, clock: ManualClock())
  }

  @Test func defaultHeadersAreAddedUnlessTheRequestSetsThemAndTheirSecretsAreMasked() async throws {
    let transport = MockTransport.successful(json: userJSON)
    let key = "sk_live_middleware_0123456789"
    let capture = CapturingLogSink()
    try await Log.withScope(sink: capture, levels: .all) {
      _ = try await Self.service(
        transport, middleware: [DefaultHeaders(["X-API-Key": key, "X-Client": "tests"])]
      ).send(GetUser())
    }
    let sent = try #require(transport.requests.first)
    #expect(sent.value(forHTTPHeaderField: "X-API-Key") == key)
    #expect(sent.value(forHTTPHeaderField: "X-Client") == "tests")
    #expect(!capture.text.contains(key), "the key is masked in every log line")
    #expect(KnownSecrets.mask("key=\(key)") == "key=<redacted>")
  }

  /// Printed, interpolated or dumped, the middleware shows its fields but no secret value
  /// (`print` and `dump` do not pass through the mask by value: the type hides it itself).
  @Test func defaultHeadersNeverShowASecretValue() {
    let key = "sk_live_described_9876543210"
    let middleware = DefaultHeaders(["X-API-Key": key, "X-Client": "tests"])
    var dumped = ""
    dump(middleware, to: &dumped)
    for shown in [String(describing: middleware), "\(middleware)", dumped] {
      #expect(!shown.contains(key), "\(shown)")
      #expect(shown.contains("X-Client") && shown.contains("tests"), "\(shown)")
    }
    #expect(
      String(describing: middleware) == "DefaultHeaders(X-API-Key: <redacted>, X-Client: tests)")
  }

  @Test func middlewareSeesEveryAttemptInOrderFirstToLast() async throws {
    let transport = MockTransport.statuses([503, 503, 200], body: userJSON)
    let counter = AttemptCounter()
    _ = try await Self.service(
      transport, middleware: [Tag(name: "a"), counter, Tag(name: "b")]
    ).send(GetUser())
    #expect(counter.attempts.map(\.number) == [1, 2, 3])
    #expect(counter.attempts.allSatisfy { $0.label == "GET /users/1" })
    #expect(
      transport.requests.map { $0.value(forHTTPHeaderField: "X-Order") } == ["a,b", "a,b", "a,b"])
  }

  @Test func everyAttemptLeavesARecordInTheLogAndInJSONLines() async throws {
    let transport = MockTransport.statuses([503, 200], body: userJSON)
    let log = RecordCollector()
    let lines = Lock<[String]>([])
    let handler = JSONLogSink { line in lines.withLock { $0.append(line) } }
    try await Log.withScope(sink: handler, levels: .all) {
      _ = try await Self.service(transport, middleware: [], requestLog: log).send(GetUser())
    }
    let records = log.records
    #expect(records.map(\.status) == [503, 200])
    #expect(records.map(\.attempt) == [1, 2])
    #expect(records.map(\.retriedBecause) == [nil, "503"])
    #expect(records.map(\.request) == ["GET /users/1", "GET /users/1"])
    let retry = try #require(records.first?.retry, "the failed attempt says when the retry comes")
    #expect(retry.number == 1 && retry.maxRetries == 3 && retry.reason == "503")
    #expect(retry.delayMilliseconds == 1000 && records.last?.retry == nil)
    #expect(records.allSatisfy { $0.method == "GET" && $0.url == "https://api.example/users/1" })
    #expect(records[1].bytesReceived == userJSON.utf8.count)

    let fields = lines.withLock { $0 }.compactMap { line -> [String: String]? in
      let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
      return object?["fields"] as? [String: String]
    }
    #expect(fields.map { $0["http.status"] } == ["503", "200"])
    #expect(fields.last?["http.retry_reason"] == "503")
    #expect(fields.last?["http.attempt"] == "2" && fields.last?["http.duration_ms"] != nil)
  }

  @Test func aTransportFailureIsRecordedWithoutAStatus() async throws {
    let log = RecordCollector()
    _ = await networkError {
      _ = try await Self.service(
        MockTransport.failing(URLError(.cannotConnectToHost)), middleware: [], requestLog: log
      ).send(CreateThing())
    }
    let record = try #require(log.records.first)
    #expect(
      record.status == nil && record.error == "could not connect to the server (URLError -1004)"
        && record.method == "POST")
    #expect(record.bytesSent > 0)
  }

  @Test func againstTheSandbox() async throws {
    let server = SandboxServer()
    try server.start()
    defer { server.stopAndWait() }
    let log = RecordCollector()
    server.faults.fail(503, method: "GET", path: "/users/1")
    var configuration = NetworkOptions(
      baseURL: server.baseURL, deadline: .seconds(300),
      retryPolicy: RetryPolicy(baseDelay: .milliseconds(10)))
    configuration.middleware = [DefaultHeaders(["X-Client": "strata-tests"])]
    configuration.observer = CallObserver(log.sink)
    // Its own transport: this test's faulted connections never share a pool with others.
    let service = NetworkService(options: configuration, transport: URLSessionTransport())
    #expect(try await service.send(GetUser()).value.firstName == "Emily")
    #expect(server.journal.entries.allSatisfy { $0.header("X-Client") == "strata-tests" })
    #expect(log.records.map(\.status) == [503, 200])
    #expect(log.records.last.map { $0.bytesReceived > 500 } == true)
  }
}
