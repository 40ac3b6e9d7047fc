import Foundation
import Strata
import StrataConcurrency
import StrataSandbox
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Streams over the real URLSession against the sandbox's event feed (`GET /events`, Strata's
/// own addition): kept writes arrive as events, a dropped connection resumes from
/// `Last-Event-ID`, and the feed's faults each have a clear outcome.
@Suite(.serialized) struct EventStreamIntegrationTests {
  private static func keeping() -> SandboxServer.Configuration {
    var configuration = SandboxServer.Configuration()
    configuration.keepsWrites = true
    return configuration
  }

  /// Makes a post through the sandbox, as another client would.
  private static func write(_ server: SandboxServer, _ title: String) async throws {
    _ = try await sandboxService(server).send(
      Request<EmptyResponse>(
        path: "posts/add", method: .post, body: .json(["title": title, "userId": "1"])))
  }

  /// Reads `count` events from `path`, making a write whenever the stream is ready for one.
  private static func read(
    _ count: Int, from path: String, _ server: SandboxServer, writes: [String]
  ) async throws -> [ServerSentEvent] {
    let service = sandboxService(
      server, policy: RetryPolicy(maxRetries: 3, baseDelay: .milliseconds(5)))
    let writer = Task {
      for title in writes {
        try await waitUntil("a stream connected") {
          server.journal.entries.contains { $0.path == "/events" }
        }
        try await write(server, title)
      }
    }
    defer { writer.cancel() }
    var events: [ServerSentEvent] = []
    // From the feed's start: a reader without Last-Event-ID would start at the feed's latest
    // event, and a first attempt retried before its head would then miss a write made meanwhile.
    for try await event in service.stream(Request<Data>(path: path), as: .events(lastEventID: "0"))
    {
      events.append(event)
      if events.count == count { break }
    }
    try await writer.value
    return events
  }

  @Test func aKeptWriteArrivesAsAnEvent() async throws {
    try await withSandbox(Self.keeping()) { server in
      let events = try await Self.read(1, from: "events?heartbeat=20", server, writes: ["Live"])
      #expect(events.first?.type == "posts.kept")
      #expect(events.first?.id == "1")
      #expect(events.first?.data.contains(#""title":"Live""#) == true)
    }
  }

  @Test func aDroppedConnectionResumesFromLastEventID() async throws {
    try await withSandbox(Self.keeping()) { server in
      let events = try await Self.read(
        3, from: "events?dropAfter=1&retry=0&heartbeat=20", server, writes: ["a", "b", "c"])
      #expect(events.map(\.id) == ["1", "2", "3"])
      let resumed = server.journal.entries.filter { $0.path == "/events" }.compactMap {
        $0.header("Last-Event-ID")
      }
      #expect(resumed.drop { $0 == "0" }.prefix(2) == ["1", "2"])
    }
  }

  @Test func splitFieldsAndASlowDripStillMakeWholeEvents() async throws {
    try await withSandbox(Self.keeping()) { server in
      for path in ["events?split=1&heartbeat=20", "events?drip=1&heartbeat=20"] {
        let events = try await Self.read(1, from: path, server, writes: ["piecewise"])
        #expect(events.first?.type == "posts.kept", "\(path)")
        #expect(events.first?.data.contains("piecewise") == true, "\(path)")
      }
    }
  }

  @Test func anEventOverTheLimitIsSkippedAndTheNextArrives() async throws {
    try await withSandbox(Self.keeping()) { server in
      let service = sandboxService(server)
      let writer = Task {
        try await waitUntil("a stream connected") {
          server.journal.entries.contains { $0.path == "/events" }
        }
        try await Self.write(server, "after the big one")
      }
      var request = Request<Data>(path: "events?big=10000000&heartbeat=20")
      request.maxResponseSize = 64 * 1024
      var iterator = service.stream(request, as: .events()).makeAsyncIterator()
      let event = try await iterator.next()
      #expect(event?.type == "posts.kept")
      try await writer.value
    }
  }

  @Test func anotherContentTypeEndsTheStreamCleanly() async throws {
    try await withSandbox(Self.keeping()) { server in
      var seen = 0
      for try await _ in sandboxService(server).stream(
        Request<Data>(path: "events?contentType=application/json&heartbeat=20"), as: .events())
      {
        seen += 1
      }
      #expect(seen == 0)
    }
  }

  @Test func badFeedOptionsAreA400() async throws {
    try await withSandbox(Self.keeping()) { server in
      let error = await networkError {
        for try await _ in sandboxService(server, policy: .none).stream(
          Request<Data>(path: "events?heartbeat=abc"), as: .events())
        {}
      }
      #expect(error?.status == 400)
      #expect(
        error?.description.contains("heartbeat must be a whole number from 10 to 60000") == true)
    }
  }

  @Test func cancellingTheReaderEndsTheRequestAtOnce() async throws {
    try await withSandbox(Self.keeping()) { server in
      let service = sandboxService(server)
      let reader = Task {
        for try await _ in service.stream(
          Request<Data>(path: "events?heartbeat=60000"), as: .events())
        {}
      }
      try await waitUntil("a stream connected") {
        server.journal.entries.contains { $0.path == "/events" }
      }
      reader.cancel()
      let outcome = await reader.result
      #expect(throws: (any Error).self) { try outcome.get() }
    }
  }

  @Test func linesOfALongAnswerArriveBeforeItEnds() async throws {
    try await withSandbox(Self.keeping()) { server in
      // The feed never ends: its first lines must be readable while it goes on.
      var lines: [String] = []
      for try await line in sandboxService(server).stream(
        Request<String>(path: "events?heartbeat=20"), as: .lines)
      {
        lines.append(line)
        if lines.count == 4 { break }
      }
      #expect(lines[0] == ": Strata sandbox event feed (kept writes)")
      #expect(lines.contains(": heartbeat"))
    }
  }
}
