import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `HARRecorder` writes what browsers' developer tools open: HAR 1.2, an entry per attempt,
/// bodies as text or base64, and nothing a log would not show — also when a hostile server
/// echoes the token, the password and a secret header back.
@Suite("HAR export")
struct HARRecorderTests {
  static func service(
    _ transport: MockTransport, _ har: HARRecorder, policy: RetryPolicy = .default
  )
    -> NetworkService
  {
    var options = NetworkOptions(
      baseURL: URL(string: "https://api.example")!, deadline: .seconds(300), retryPolicy: policy)
    options.observer = har.observer
    return NetworkService(options: options, transport: transport, clock: ManualClock())
  }

  static func entries(_ har: HARRecorder) throws -> [[String: Any]] {
    let data = try har.har()
    #expect(HARCheck.problems(in: data).isEmpty, "\(HARCheck.problems(in: data))")
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return (root["log"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []
  }

  struct Login: Encodable, Sendable {
    let username: String
    let password: String
  }

  @Test func anEchoingServerLeavesNoSecretInTheFile() async throws {
    let token = "tok-\(UUID().uuidString)"
    KnownSecrets.register(token)
    let transport = MockTransport { request, attempt in
      let echo = #"{"password":"hunter2-echo","seen":"\#(token)","note":"access_token=abc123def"}"#
      return try MockTransport.response(
        request, status: attempt == 1 ? 503 : 200, body: echo,
        headers: ["Content-Type": "application/json", "X-Echo-Token": token])
    }
    let har = HARRecorder()
    var login = Request<EmptyResponse>(
      path: "auth/login", method: .post, query: ["api_key": "k-secret-1"],
      body: .json(Login(username: "emilys", password: "hunter2")), idempotencyKey: "key-1")
    login.headers["Authorization"] = "Bearer \(token)"
    _ = try await Self.service(transport, har).send(login)

    let entries = try Self.entries(har)
    #expect(entries.count == 2, "the 503 and its retry, each an entry")
    let strata = entries.compactMap { $0["_strata"] as? [String: Any] }
    #expect(strata.map { $0["attempt"] as? Int } == [1, 2])
    #expect(strata.allSatisfy { $0["request"] as? String == "POST /auth/login" })
    #expect(strata.map { $0["source"] as? String } == ["network", "network"])
    let text = String(decoding: try har.har(), as: UTF8.self)
    for secret in [token, "hunter2", "k-secret-1", "abc123def"] {
      #expect(!text.contains(secret), "\(secret) reached the HAR file")
    }
    #expect(text.contains("emilys"), "what is not secret stays")
    let request = try #require(entries.first?["request"] as? [String: Any])
    #expect((request["postData"] as? [String: Any])?["mimeType"] as? String == "application/json")
    let response = try #require(entries.last?["response"] as? [String: Any])
    #expect(response["status"] as? Int == 200)
  }

  /// A server that echoes the request body back as a JSON string (an error message quoting
  /// what it got, a debugging echo): the password inside that string is masked too, in the
  /// answer and in an error's text.
  @Test(arguments: [
    #"{"echo":"{\"username\":\"emilys\",\"password\":\"pw-echoed-77\"}"}"#,
    #"{"message":"bad login: password=pw-echoed-77"}"#,
    #"{"message":"rejected pw-echoed-77 for emilys"}"#,
  ])
  func aPasswordEchoedInsideAJSONStringIsMasked(_ echo: String) async throws {
    let transport = MockTransport { request, _ in
      try MockTransport.response(request, status: 400, body: echo)
    }
    let har = HARRecorder()
    let login = Request<EmptyResponse>(
      path: "auth/login", method: .post,
      body: .json(Login(username: "emilys", password: "pw-echoed-77")))
    _ = try? await Self.service(transport, har).send(login)
    let text = String(decoding: try har.har(), as: UTF8.self)
    #expect(!text.contains("pw-echoed-77"), "the password reached the HAR file: \(text)")
    #expect(text.contains("emilys"), "what is not secret stays")
  }

  /// A recorder keeps the newest `entryLimit` attempts and says how many went; the document
  /// lists them in the order they started, though they end (and are kept) in another.
  @Test func theRecorderIsBoundedAndInStartOrder() async throws {
    let transport = MockTransport { request, _ in
      try MockTransport.response(request, status: 200, body: "{}")
    }
    let har = HARRecorder(entryLimit: 3)
    let service = Self.service(transport, har)
    for number in 1...7 { _ = try await service.send(Request<Data>(path: "items/\(number)")) }
    #expect(har.count == 3)
    let urls = try Self.entries(har).compactMap {
      ($0["request"] as? [String: Any])?["url"] as? String
    }
    #expect(urls.map { $0.components(separatedBy: "/").last } == ["5", "6", "7"])
    let text = String(decoding: try har.har(), as: UTF8.self)
    #expect(text.contains("the 4 oldest attempts were dropped (entryLimit 3)"))

    // The second ends (and is told) first; the document still lists the first first.
    let order = HARRecorder()
    let earlier = Date()
    for (path, started) in [("second", earlier + 1), ("first", earlier)] {
      let request = URLRequest(url: URL(string: "https://api.example/\(path)")!)
      var record = RequestRecord(
        request: "GET /\(path)", method: "GET", url: "https://api.example/\(path)", status: 200,
        durationMilliseconds: 1, bytesSent: 0, bytesReceived: 1, attempt: 1)
      record.exchange = HTTPExchange(started: started, request: request)
      record.exchange?.response = HTTPURLResponse(
        url: request.url!, statusCode: 200, httpVersion: nil, headerFields: [:])
      order.observer.observe(record)
    }
    let started = try Self.entries(order).compactMap {
      ($0["request"] as? [String: Any])?["url"] as? String
    }
    #expect(started == ["https://api.example/first", "https://api.example/second"])
  }

  /// A secret member nested in the request body (inside an object, inside an array) is found
  /// and masked where the server echoes it.
  @Test func aNestedSecretMemberIsMaskedWhereItIsEchoed() async throws {
    struct Wrapped: Encodable {
      let devices: [[String: String]]
      let account: [String: [String: String]]
    }
    let transport = MockTransport { request, _ in
      try MockTransport.response(
        request, status: 400, body: #"{"message":"got pw-nested-88 and pin-nested-99"}"#)
    }
    let har = HARRecorder()
    let body = Wrapped(
      devices: [["name": "phone", "secret": "pin-nested-99"]],
      account: ["credentials": ["password": "pw-nested-88"]])
    _ = try? await Self.service(transport, har).send(
      Request<EmptyResponse>(path: "auth/login", method: .post, body: .json(body)))
    let text = String(decoding: try har.har(), as: UTF8.self)
    #expect(!text.contains("pw-nested-88") && !text.contains("pin-nested-99"), "\(text)")
  }

  @Test func binaryBodiesAreBase64AndCutAtTheLimit() async throws {
    let png = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    let transport = MockTransport { request, _ in
      (
        png,
        HTTPURLResponse(
          url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1",
          headerFields: ["Content-Type": "image/png"])!
      )
    }
    let har = HARRecorder(bodyLimit: 100)
    _ = try await Self.service(transport, har).send(Request<Data>(path: "icon"))
    let content = try #require(
      (try Self.entries(har).first?["response"] as? [String: Any])?["content"] as? [String: Any])
    #expect(content["encoding"] as? String == "base64")
    #expect(content["text"] as? String == png.prefix(100).base64EncodedString())
    #expect(content["size"] as? Int == 300)
    #expect((content["comment"] as? String)?.contains("the first 100 of 300 bytes") == true)
  }

  @Test func anAttemptWithoutAnAnswerIsAnEntryWithItsError() async throws {
    let har = HARRecorder()
    let service = Self.service(
      MockTransport.failing(URLError(.cannotConnectToHost)), har, policy: .none)
    await #expect(throws: NetworkError.self) {
      _ = try await service.send(Request<Data>(path: "x"))
    }
    let entry = try #require(try Self.entries(har).first)
    #expect((entry["response"] as? [String: Any])?["status"] as? Int == 0)
    #expect(((entry["_strata"] as? [String: Any])?["error"] as? String)?.isEmpty == false)
  }

  /// The file is the user's record: 0600, whole, and a link planted at its path is replaced,
  /// never written through.
  @Test func theFileIsPrivateAndNeverWrittenThroughALink() async throws {
    let folder = try TemporaryDirectory()
    let target = folder.path + "/elsewhere.txt"
    try Data("keep".utf8).write(to: URL(fileURLWithPath: target))
    let path = folder.path + "/run.har"
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    let har = HARRecorder()
    _ = try await Self.service(MockTransport.successful(json: "{}"), har).send(
      Request<EmptyResponse>(path: "x"))
    try har.write(to: path)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    #expect(HARCheck.problems(in: try Data(contentsOf: URL(fileURLWithPath: path))).isEmpty)
  }

  /// The check catches what it is for: a missing member, a time without a zone.
  @Test func theCheckRefusesABrokenFile() {
    #expect(!HARCheck.problems(in: Data(#"{"log":{"version":"1.2"}}"#.utf8)).isEmpty)
    let noZone =
      #"{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[{"startedDateTime":"2026-01-01T00:00:00.000","time":1,"request":{},"response":{},"cache":{},"timings":{}}]}}"#
    #expect(HARCheck.problems(in: Data(noZone.utf8)).contains { $0.contains("startedDateTime") })
  }

  /// One observer sees the whole call: the attempt as the transport got it (a middleware's
  /// header included) with its bodies, and the cache's answer without a request — and the
  /// HAR, one of its consumers, holds both.
  @Test func theObserverAndTheHARSeeAttemptsAsSentAndCacheAnswers() async throws {
    let transport = MockTransport { request, _ in
      try MockTransport.response(
        request, status: 200, body: "{\"id\":1}",
        headers: ["Content-Type": "application/json", "Cache-Control": "max-age=600"])
    }
    let har = HARRecorder()
    let records = Lock<[RequestRecord]>([])
    var options = NetworkOptions(
      baseURL: URL(string: "https://api.example")!, deadline: .seconds(300), retryPolicy: .none)
    options.middleware = [DefaultHeaders(["X-Client": "tests"])]
    options.observer = .all([
      har.observer, CallObserver(bodyLimit: 4) { record in records.withLock { $0.append(record) } },
    ])
    let service = NetworkService(options: options, transport: transport, clock: ManualClock())
    for _ in 0..<2 { _ = try await service.send(Request<Data>(path: "items/1")) }
    #expect(transport.requestCount == 1)
    let told = records.withLock { $0 }
    #expect(told.map(\RequestRecord.attempt) == [1, 0])
    #expect(told.map { $0.source?.label } == ["miss", "hit"])
    let sent = try #require(told.first?.exchange)
    #expect(sent.request.value(forHTTPHeaderField: "X-Client") == "tests", "after middleware")
    #expect(sent.response?.statusCode == 200 && sent.responseBodySize == 8)
    #expect(sent.responseBody == Data("{\"id\":1}".utf8), "the most any observer asked for")
    #expect(told.last?.exchange?.responseBody == Data("{\"id\":1}".utf8), "the kept answer")
    let strata = try Self.entries(har).map { $0["_strata"] as? [String: Any] ?? [:] }
    #expect(strata.map { $0["source"] as? String } == ["network", "cache"])
    #expect(strata.map { $0["attempt"] as? Int } == [1, 0])
  }

  /// Heads only (`bodyLimit` 0): nothing of a body is kept, and the size is still told.
  @Test func anObserverOfHeadsKeepsNoBody() async throws {
    let transport = MockTransport { request, _ in
      try MockTransport.response(request, status: 200, body: "{\"secret\":1}")
    }
    let records = Lock<[RequestRecord]>([])
    var options = NetworkOptions(
      baseURL: URL(string: "https://api.example")!, deadline: .seconds(300), retryPolicy: .none)
    options.cache = nil
    options.observer = CallObserver { record in records.withLock { $0.append(record) } }
    let service = NetworkService(options: options, transport: transport, clock: ManualClock())
    _ = try await service.send(Request<Data>(path: "items/1", method: .post, body: .json(["a": 1])))
    let exchange = try #require(records.withLock { $0.first?.exchange })
    #expect(exchange.responseBody.isEmpty && exchange.requestBody == Data())
    #expect(exchange.responseBodySize == 0, "heads only: the body is not watched")
    #expect(exchange.requestBodySize == 7 && records.withLock { $0.first?.bytesReceived } == 12)
  }

  /// A form's secret fields and an error that quotes a known secret are masked in the file.
  @Test func aFormsSecretsAndAnErrorsSecretAreMasked() async throws {
    KnownSecrets.register(["zq-known-secret-7781"])
    let transport = MockTransport { request, number in
      guard number == 1 else {
        throw URLError(
          .cannotWriteToFile,
          userInfo: [NSLocalizedDescriptionKey: "could not read zq-known-secret-7781"])
      }
      return try MockTransport.response(request, status: 200, body: "{}")
    }
    let har = HARRecorder()
    let service = Self.service(transport, har, policy: .none)
    _ = try await service.send(
      Request<Data>(
        path: "login", method: .post,
        body: .form([("username", "emily"), ("password", "hunter2-form-pass")])))
    _ = await networkError { _ = try await service.send(Request<Data>(path: "again")) }
    let text = String(decoding: try har.har(), as: UTF8.self)
    #expect(har.count == 2)
    #expect(text.contains("username=emily"), "what is not secret stays")
    #expect(!text.contains("hunter2-form-pass") && !text.contains("zq-known-secret-7781"))
  }
}
