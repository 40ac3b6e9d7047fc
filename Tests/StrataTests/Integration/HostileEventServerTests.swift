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
    Array("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n".utf8)
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
    for try await event in service.stream(Request<ServerSentEvent>(path: "events")) {
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
    #expect(server.requestHeads.count == 2)
    #expect(server.requestHeads.last?.lowercased().contains("last-event-id: 5") == true)
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
    var request = Request<ServerSentEvent>(path: "events")
    request.maxResponseSize = 64 * 1024
    var iterator = service.stream(request).makeAsyncIterator()
    #expect(try await iterator.next() == ServerSentEvent(data: "after"))
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
      for try await _ in service.stream(Request<ServerSentEvent>(path: "events")) {}
    }
    #expect(error?.kind == .transport(URLError(.timedOut)))
  }
}
