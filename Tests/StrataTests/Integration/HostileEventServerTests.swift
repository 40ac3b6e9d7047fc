import Foundation
import Strata
import StrataSandbox
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Event streams over the real URLSession against a loopback server that frames events every
/// way a server may, and some it should not: each a clear outcome, never a hang or a trap.
struct HostileEventServerTests {
  private static func events(_ body: String) -> [UInt8] {
    Array(
      ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-Content-Type-Options: nosniff\r\n"
        + "Connection: close\r\n\r\n").utf8)
      + Array(body.utf8)
  }

  private static func service(
    _ server: CannedHTTPServer, maxDelay: Duration = .seconds(30), maxRetries: Int = 3,
    idleTimeout: Duration? = nil
  ) -> NetworkService {
    NetworkService(
      options: NetworkOptions(
        baseURL: server.baseURL, deadline: .seconds(300), idleTimeout: idleTimeout,
        retryPolicy: RetryPolicy(
          maxRetries: maxRetries, baseDelay: .milliseconds(5), maxDelay: maxDelay)),
      transport: sharedTransport)
  }

  private static func read(_ count: Int, _ service: NetworkService) async throws
    -> [ServerSentEvent]
  {
    var events: [ServerSentEvent] = []
    for try await event in service.stream(Request<Data>(path: "events"), as: .events()) {
      events.append(event)
      if events.count == count { break }
    }
    return events
  }

  @Test func crOnlyLineEndsAndAByteOrderMarkThenAResumedConnection() async throws {
    let server = try CannedHTTPServer { _, number in
      number == 0
        ? Self.events("\u{FEFF}: hi\rdata: a\rid: 5\rdata: b\r\rretry: 0\r")
        : Self.events("\u{FEFF}data: c\r\n\r\n")
    }
    let events = try await Self.read(2, Self.service(server))
    #expect(
      events == [ServerSentEvent(data: "a\nb", id: "5"), ServerSentEvent(data: "c", id: "5")])
    // The second connection resumed; a third may have started as the reader stopped (its
    // answer ended, and `retry: 0` reconnects at once).
    let heads = server.requestHeads
    #expect(heads.count >= 2)
    #expect(heads.dropFirst().first?.lowercased().contains("last-event-id: 5") == true)
  }

  @Test func aConnectionDroppedAfterEveryEventLosesNoneAndRepeatsNone() async throws {
    let server = try CannedHTTPServer { _, number in
      Self.events("retry: 0\nid: \(number)\ndata: \(number)\n\n")
    }
    let events = try await Self.read(5, Self.service(server))
    #expect(events.map(\.data) == ["0", "1", "2", "3", "4"])
    let resumedFrom = server.requestHeads.dropFirst().prefix(4).map { head in
      head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("last-event-id:") }
        .map { $0.dropFirst(14).trimmingCharacters(in: .whitespaces) }
    }
    #expect(resumedFrom == ["0", "1", "2", "3"])
  }

  @Test func aRetryOfABillionMillisecondsWaitsOnlyThePolicysCap() async throws {
    let server = try CannedHTTPServer { _, number in
      Self.events("retry: 1000000000\ndata: \(number)\n\n")
    }
    // A cap of 20 ms: a billion would hang the test for eleven days.
    let events = try await Self.read(2, Self.service(server, maxDelay: .milliseconds(20)))
    #expect(events.map(\.data) == ["0", "1"])
  }

  @Test func anEndlessLineIsSkippedAndTheStreamGoesOn() async throws {
    let server = try CannedHTTPServer { _, number in
      number == 0
        ? Self.events("data: " + String(repeating: "x", count: 4 << 20))
        : Self.events("data: after\n\n")
    }
    let service = Self.service(server)
    var request = Request<Data>(path: "events")
    request.maxResponseSize = 64 * 1024
    var iterator = service.stream(request, as: .events()).makeAsyncIterator()
    #expect(try await iterator.next() == ServerSentEvent(data: "after"))
  }

  /// A stream's limit is per line, never the announced length: 12 MB of JSON lines framed
  /// by `Content-Length` (over the 10 MiB default) stream whole.
  @Test func aLineStreamLongerThanTheLimitStreamsWhole() async throws {
    var body: [UInt8] = []
    body.reserveCapacity(12_100_000)
    var count = 0
    while body.count < 12_000_000 {
      body += Array("{\"n\":\(count),\"pad\":\"\(String(repeating: "x", count: 80))\"}\n".utf8)
      count += 1
    }
    let head =
      "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nX-Content-Type-Options: nosniff\r\n"
      + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    let server = try CannedHTTPServer(response: Array(head.utf8) + body)
    struct Row: Decodable, Sendable { let n: Int }
    var (seen, last) = (0, -1)
    for try await row in Self.service(server).stream(
      Request<Row>(path: "export"), as: .jsonLines(Row.self))
    {
      (seen, last) = (seen + 1, row.n)
    }
    #expect(seen == count && last == count - 1)
  }

  /// Lines, then the connection cut short of its `Content-Length`: what came was handed over,
  /// so the GET is not tried again (its lines would come twice), though the policy retries.
  @Test func aLineStreamCutAfterItsFirstBytesIsNeverRepeated() async throws {
    let server = try CannedHTTPServer(
      response: Array(
        ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Content-Type-Options: nosniff\r\n"
          + "Content-Length: 100\r\n\r\none\ntwo\n").utf8))
    var lines: [String] = []
    let error = await networkError {
      for try await line in Self.service(server).stream(Request<String>(path: "log"), as: .lines) {
        lines.append(line)
      }
    }
    #expect(lines == ["one", "two"])
    guard case .transport(let cause)? = error?.kind else {
      Issue.record("ended with \(String(describing: error)), not the cut")
      return
    }
    #expect(cause.code == .networkConnectionLost)
    #expect(server.requests == 1, "read once: a retry would hand the lines over again")
  }

  @Test func anAnswerThatNeverSendsAByteEndsWithATimeout() async throws {
    // Listening, never accepting: the request is sent, no byte ever comes back.
    let listener = try Socket.listen(port: 0, backlog: 4)
    defer { Socket.close(listener.fd) }
    let service = NetworkService(
      options: NetworkOptions(
        baseURL: URL(string: "http://127.0.0.1:\(listener.port)")!, deadline: .seconds(300),
        idleTimeout: .seconds(1),
        retryPolicy: RetryPolicy(maxRetries: 1, baseDelay: .milliseconds(5))),
      transport: sharedTransport)
    let error = await networkError {
      for try await _ in service.stream(Request<Data>(path: "events"), as: .events()) {}
    }
    #expect(error?.kind == .transport(URLError(.timedOut)))
  }

  /// 3,000 events of 2 KiB each (6 MB: past the 4 MiB a reader may fall behind), from after
  /// the `Last-Event-ID` sent, with ids when `ids`; from the `gone`th request on, 404.
  private static func floodServer(ids: Bool, goneFrom gone: Int = .max) throws
    -> CannedHTTPServer
  {
    let filler = String(repeating: "x", count: 2_000)
    return try CannedHTTPServer { head, number in
      if number >= gone {
        return Array(
          "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
      }
      let resumed = head.split(separator: "\r\n")
        .first { $0.lowercased().hasPrefix("last-event-id:") }
        .flatMap { Int($0.dropFirst(14).trimmingCharacters(in: .whitespaces)) }
      let from = (resumed ?? 0) + 1
      guard from <= 3_000 else { return Self.events("") }
      return Self.events(
        (from...3_000).map { (ids ? "id: \($0)\n" : "") + "data: \($0) \(filler)\n\n" }
          .joined())
    }
  }

  /// The reader takes one event, then waits until the first connection has ended (its record),
  /// then reads on — far behind in between.
  private static func readFallingBehind(_ server: CannedHTTPServer, until last: Int)
    async throws -> [Int]
  {
    let (ended, recorded) = AsyncStream.makeStream(of: Void.self)
    var options = NetworkOptions(
      baseURL: server.baseURL, deadline: .seconds(300),
      retryPolicy: RetryPolicy(maxRetries: 3, baseDelay: .milliseconds(5)))
    options.observer = CallObserver { _ in recorded.yield() }
    let service = NetworkService(options: options, transport: sharedTransport)
    var numbers: [Int] = []
    var waited = false
    var request = Request<Data>(path: "events")
    request.maxResponseSize = 64 * 1024  // a reader may fall 4 MiB behind, no more
    for try await event in service.stream(request, as: .events()) {
      numbers.append(Int(event.data.prefix { $0 != " " }) ?? -1)
      if !waited {
        waited = true
        for await _ in ended { break }
      }
      if numbers.last == last { break }
    }
    return numbers
  }

  @Test func aReaderFarBehindGetsEveryEventOnceAfterAReconnection() async throws {
    let server = try Self.floodServer(ids: true)
    let numbers = try await Self.readFallingBehind(server, until: 3_000)
    #expect(numbers == Array(1...3_000), "every event, in order, once")
    // One reconnection for falling behind; another may have started as the reader stopped
    // (the second answer ended after the last event).
    let heads = server.requestHeads
    #expect(heads.count >= 2, "one reconnection")
    let resumed = heads.dropFirst().first?.split(separator: "\r\n")
      .first { $0.lowercased().hasPrefix("last-event-id:") }
      .flatMap { Int($0.dropFirst(14).trimmingCharacters(in: .whitespaces)) }
    #expect(resumed.map { (1..<3_000).contains($0) } == true, "from the last event handed over")
  }

  @Test(.timeLimit(.minutes(1)))
  func aResumedStreamThatIsRefusedEndsWithTheRefusalNotAnotherResumption() async throws {
    let server = try Self.floodServer(ids: true, goneFrom: 1)
    let error = await networkError { _ = try await Self.readFallingBehind(server, until: 3_000) }
    #expect(error?.status == 404, "\(String(describing: error))")
    #expect(server.requestHeads.count == 2, "falling behind once resumes once")
  }

  @Test func aReaderFarBehindEndsAStreamWithoutIdsWithASentence() async throws {
    let server = try Self.floodServer(ids: false)
    let error = await networkError { _ = try await Self.readFallingBehind(server, until: 3_000) }
    #expect(error?.kind == .responseTooLarge(limit: 4 << 20))
    let sentence = error.map { "\($0)" } ?? ""
    #expect(sentence.contains("fell more than"), "\(sentence)")
    #expect(server.requestHeads.count == 1, "nothing to resume from: no reconnection")
  }
}
