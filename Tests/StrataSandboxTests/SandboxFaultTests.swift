import Foundation
import Testing

@testable import StrataSandbox

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Sandbox fault injection and journal")
struct SandboxFaultTests {
  @Test func twoFailuresThenNormal() async throws {
    try await Sandbox.with { sandbox throws in
      sandbox.server.faults.fail(
        503, method: "GET", path: "/users", count: 2, headers: ["Retry-After": "3"])
      let first = try await sandbox.send("GET", "/users?limit=1")
      let second = try await sandbox.send("GET", "/users?limit=1")
      let third = try await sandbox.send("GET", "/users?limit=1")
      #expect([first.status, second.status, third.status] == [Int]([503, 503, 200]))
      #expect(first.header("Retry-After") == "3")
      #expect(sandbox.server.journal.count(method: "GET", path: "/users") == 3)
      #expect(sandbox.server.faults.pending == 0)
    }
  }

  @Test func faultsMatchOnlyTheirMethodAndPath() async throws {
    try await Sandbox.with { sandbox throws in
      sandbox.server.faults.fail(500, method: "POST", path: "/posts/add")
      sandbox.server.faults.fail(502, path: "/todos/*")
      #expect(try await sandbox.send("GET", "/posts/1").status == 200)
      #expect(
        try await sandbox.send("POST", "/posts/add", json: ["title": "t", "userId": 1]).status
          == 500)
      #expect(
        try await sandbox.send("POST", "/posts/add", json: ["title": "t", "userId": 1]).status
          == 201)
      #expect(try await sandbox.send("GET", "/todos/4").status == 502)
      #expect(try await sandbox.send("GET", "/todos/4").status == 200)
    }
  }

  @Test func droppedConnectionIsATransportError() async throws {
    try await Sandbox.with { sandbox throws in
      sandbox.server.faults.add(
        .init(method: "GET", path: "/users/1", count: 1, action: .dropConnection))
      await #expect(throws: URLError.self) { try await sandbox.send("GET", "/users/1") }
      #expect(try await sandbox.send("GET", "/users/1").status == 200)
      #expect(sandbox.server.journal.count(path: "/users/1") == 2)
    }
  }

  @Test func truncatedBodyIsATransportError() async throws {
    try await Sandbox.with { sandbox throws in
      sandbox.server.faults.add(.init(path: "/users", action: .truncateBody))
      await #expect(throws: URLError.self) { try await sandbox.send("GET", "/users") }
    }
  }

  @Test func scriptedBodyIsSentVerbatim() async throws {
    try await Sandbox.with { sandbox throws in
      sandbox.server.faults.add(
        .init(
          path: "/users/1",
          action: .respond(status: 200, headers: ["Content-Type": "text/html"], body: "<html>")))
      let reply = try await sandbox.send("GET", "/users/1")
      #expect(reply.status == 200 && String(decoding: reply.data, as: UTF8.self) == "<html>")
      #expect(reply.header("Content-Type") == "text/html")
    }
  }

  @Test func delayFaultDelaysThenServes() async throws {
    try await Sandbox.with { sandbox throws in
      sandbox.server.faults.add(.init(path: "/todos/1", action: .delay(.milliseconds(150))))
      let start = ContinuousClock.now
      #expect(try await sandbox.send("GET", "/todos/1").status == 200)
      #expect(ContinuousClock.now - start >= .milliseconds(150))
    }
  }

  @Test func journalRecordsMethodPathHeadersAndTime() async throws {
    try await Sandbox.with { sandbox throws in
      let before = Date()
      _ = try await sandbox.send("GET", "/users/3?select=age", headers: ["X-Trace": "abc"])
      let entry = try #require(sandbox.server.journal.entries.last)
      #expect(entry.method == "GET" && entry.path == "/users/3")
      #expect(entry.query.first?.name == "select")
      #expect(entry.header("x-trace") == "abc")
      #expect(entry.timestamp >= before.addingTimeInterval(-1))
      sandbox.server.journal.reset()
      #expect(sandbox.server.journal.entries.isEmpty)
    }
  }

  @Test func manyConcurrentRequests() async throws {
    try await Sandbox.with { sandbox throws in
      let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<100 {
          group.addTask { try await sandbox.send("GET", "/users/\(1 + index % 36)").status }
        }
        return try await group.reduce(into: [Int]()) { $0.append($1) }
      }
      #expect(statuses.count == 100 && statuses.allSatisfy { $0 == 200 })
      #expect(sandbox.server.journal.count() == 100)
    }
  }
}

@Suite("Sandbox journal bounds")
struct SandboxJournalTests {
  @Test func journalKeepsOnlyTheNewestEntries() async throws {
    try await Sandbox.with(configuration: .init(journalCapacity: 3)) { sandbox throws in
      for id in 1...5 { _ = try await sandbox.send("GET", "/users/\(id)") }
      #expect(sandbox.server.journal.entries.map(\.path) == ["/users/3", "/users/4", "/users/5"])
    }
  }
}

@Suite("Fault specs (sandbox serve --fault)")
struct FaultSpecTests {
  @Test func specsParse() throws {
    let burst = try FaultInjector.Fault(spec: "GET /users 503x2")
    #expect(burst.method == "GET" && burst.path == "/users" && burst.remaining == 2)
    guard case .respond(let status, _, _) = burst.action else {
      Issue.record("wrong action")
      return
    }
    #expect(status == 503)
    let drop = try FaultInjector.Fault(spec: "* /posts/* drop")
    #expect(drop.method == nil && drop.path == "/posts/*" && drop.remaining == 1)
    let delay = try FaultInjector.Fault(spec: "post /auth/refresh delay=1500ms x3")
    #expect(delay.method == "POST" && delay.remaining == 3)
    guard case .delay(let duration) = delay.action else {
      Issue.record("wrong action")
      return
    }
    #expect(duration == .milliseconds(1500))
  }

  @Test(arguments: [
    "GET /users", "GET users 503", "G3T /users 503", "GET /users 999", "GET /users fast",
    "GET /users 503x0", "GET /users delay=soon",
  ])
  func badSpecsAreRejected(_ spec: String) {
    #expect(throws: FaultInjector.Fault.SpecError.self) { try FaultInjector.Fault(spec: spec) }
  }

  /// `truncate-head`: the status line and four bytes of the next, then the connection closed —
  /// never the blank line that ends a head.
  @Test func aHeadCutShortEndsInsideTheHead() async throws {
    try await Sandbox.with { sandbox throws in
      sandbox.server.faults.add(try FaultInjector.Fault(spec: "GET /users/1 truncate-head"))
      let cut = try await sandbox.raw(Array("GET /users/1 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
      #expect(cut.hasPrefix("HTTP/1.1 200 OK\r\n") && cut.count == "HTTP/1.1 200 OK\r\n".count + 4)
      #expect(!cut.contains("\r\n\r\n"))
      #expect(try await sandbox.send("GET", "/users/1").status == 200, "the server is up")
    }
  }

  @Test func parsedFaultsAreServed() async throws {
    try await Sandbox.with { sandbox throws in
      sandbox.server.faults.add(try FaultInjector.Fault(spec: "GET /users/1 503x2"))
      #expect(try await sandbox.send("GET", "/users/1").status == 503)
      #expect(try await sandbox.send("GET", "/users/1").status == 503)
      #expect(try await sandbox.send("GET", "/users/1").status == 200)
    }
  }
}

@Suite("Journal ring")
struct JournalRingTests {
  @Test func wrapsAroundManyTimesInOrder() async throws {
    try await Sandbox.with(configuration: .init(journalCapacity: 4)) { sandbox throws in
      for id in 1...11 { _ = try await sandbox.send("GET", "/users/\(id)") }
      #expect(
        sandbox.server.journal.entries.map(\.path) == [
          "/users/8", "/users/9", "/users/10", "/users/11",
        ])
      #expect(
        sandbox.server.journal.count(path: "/users/9") == 1 && sandbox.server.journal.count() == 4)
      sandbox.server.journal.reset()
      _ = try await sandbox.send("GET", "/users/1")
      #expect(sandbox.server.journal.entries.map(\.path) == ["/users/1"])
    }
  }
}
