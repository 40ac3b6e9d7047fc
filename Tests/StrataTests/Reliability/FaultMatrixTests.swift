import Foundation
import Strata
import StrataSandbox
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

struct Numbers: Endpoint {
  var request: Request<[Int]> { Request(path: "numbers") }
}

struct Nothing: Endpoint {
  var request: Request<EmptyResponse> { Request(path: "users/1") }
}

/// Every hostile server behaviour, through the real URLSession, with the documented error and
/// the exact number of attempts (counted by the sandbox).
@Suite("Fault matrix (real URLSession against the sandbox)")
struct FaultMatrixTests {
  static let fast = RetryPolicy(maxRetries: 3, baseDelay: .milliseconds(5))

  /// The suite's own session, with an idle backstop and a deadline that are only hang guards:
  /// these tests count attempts, so no clock may end one. On the suite's shared session (10 s
  /// idle backstop) with a 40 s deadline, a busy machine once held three attempts up until
  /// the deadline left no time for the last retry (1 run in 5 of `make test-load`).
  static let transport = URLSessionTransport(options: .init(idleBackstop: 300))

  func withService(_ body: (SandboxServer, NetworkService) async throws -> Void) async throws {
    try await withSandbox { server in
      let service = NetworkService(
        options: NetworkOptions(
          baseURL: server.baseURL, deadline: .seconds(300), retryPolicy: Self.fast),
        transport: Self.transport)
      try await body(server, service)
    }
  }

  @Test func burstOf5xxThenSuccess() async throws {
    try await withService { server, service in
      server.faults.fail(502, path: "/users/1")
      server.faults.fail(503, path: "/users/1")
      server.faults.fail(504, path: "/users/1")
      let value = try await service.send(GetUser()).value
      #expect(value.firstName == "Emily")
      #expect(server.journal.count(path: "/users/1") == 4)
    }
  }

  @Test func persistent500ExhaustsTheRetries() async throws {
    try await withService { server, service in
      server.faults.fail(500, path: "/users/1", count: 10)
      let error = await networkError { _ = try await service.send(GetUser()) }
      #expect(error?.status == 500)
      #expect(server.journal.count(path: "/users/1") == 4)
    }
  }

  @Test func connectionDroppedMidResponseIsRetried() async throws {
    try await withService { server, service in
      server.faults.add(.init(path: "/users/1", action: .truncateBody))
      let value = try await service.send(GetUser()).value
      #expect(value.id == 1)
      #expect(server.journal.count(path: "/users/1") == 2)
    }
  }

  @Test func connectionDroppedEveryTimeIsATransportError() async throws {
    try await withService { server, service in
      server.faults.add(.init(path: "/users/1", count: 10, action: .dropConnection))
      let error = await networkError { _ = try await service.send(GetUser()) }
      guard case .transport(let urlError) = error?.kind else {
        Issue.record("expected .transport, got \(String(describing: error))")
        return
      }
      #expect(urlError.code == .networkConnectionLost)
      #expect(server.journal.count(path: "/users/1") == 4)
    }
  }

  @Test func slowResponsePastTheDeadlineTimesOutWithoutRetry() async throws {
    try await withService { server, _ in
      // Silent for 60 s (the longest a fault delays), then an answer; the session's own idle
      // timeout is an hour: a timeout can only be the service's 400 ms deadline, however busy
      // the machine (the verdict reads no clock).
      server.faults.add(.init(path: "/users/1", count: 10, action: .delay(.seconds(60))))
      let service = NetworkService(
        options: NetworkOptions(
          baseURL: server.baseURL, deadline: .milliseconds(400), retryPolicy: Self.fast),
        // Its own session: on Linux, tearing down the abandoned transfer can hold up every
        // other transfer of the same URLSession for seconds.
        transport: URLSessionTransport(options: .init(idleBackstop: 3600)))
      let error = await networkError { _ = try await service.send(GetUser()) }
      #expect(error?.kind == .deadlineExceeded, "the 400 ms deadline, not the 60 s server")
      #expect(server.journal.count(path: "/users/1") == 1)
    }
  }

  @Test func malformedJSONIsADecodingErrorWithOneAttempt() async throws {
    try await withService { server, service in
      server.faults.add(
        .init(path: "/users/1", action: .respond(status: 200, body: #"{"id":1,"firstName":"#)))
      let error = await networkError { _ = try await service.send(GetUser()) }
      guard case .decoding(let failure) = error?.kind else {
        Issue.record("expected .decoding, got \(String(describing: error))")
        return
      }
      #expect(failure.status == 200 && failure.reason == "not valid JSON")
      #expect(server.journal.count(path: "/users/1") == 1)
    }
  }

  @Test func wrongContentTypeWithHTMLIsADecodingError() async throws {
    try await withService { server, service in
      server.faults.add(
        .init(
          path: "/users/1",
          action: .respond(
            status: 200, headers: ["Content-Type": "text/html"], body: "<html>hi</html>")))
      let error = await networkError { _ = try await service.send(GetUser()) }
      guard case .decoding(let failure) = error?.kind else {
        Issue.record("expected .decoding, got \(String(describing: error))")
        return
      }
      #expect(failure.bodyExcerpt == "<15 bytes, not JSON>")
      #expect(server.journal.count(path: "/users/1") == 1)
    }
  }

  @Test func wrongContentTypeWithValidJSONStillDecodes() async throws {
    try await withService { server, service in
      server.faults.add(
        .init(
          path: "/users/1",
          action: .respond(status: 200, headers: ["Content-Type": "text/plain"], body: userJSON)))
      let value = try await service.send(GetUser()).value
      #expect(value.firstName == "Emily")
    }
  }

  @Test func emptyBodyIsADecodingErrorUnlessNothingIsExpected() async throws {
    try await withService { server, service in
      server.faults.add(.init(path: "/users/1", count: 2, action: .respond(status: 200, body: "")))
      let error = await networkError { _ = try await service.send(GetUser()) }
      guard case .decoding = error?.kind else {
        Issue.record("expected .decoding, got \(String(describing: error))")
        return
      }
      _ = try await service.send(Nothing())
      #expect(server.journal.count(path: "/users/1") == 2)
    }
  }

  @Test func hugeBodyDecodes() async throws {
    try await withService { server, service in
      let numbers = "[" + (0..<600_000).map(String.init).joined(separator: ",") + "]"
      server.faults.add(.init(path: "/numbers", action: .respond(status: 200, body: numbers)))
      let decoded = try await service.send(Numbers()).value
      #expect(decoded.count == 600_000 && decoded.last == 599_999)
    }
  }

  @Test func connectionRefused() async throws {
    let service = NetworkService(
      options: NetworkOptions(
        baseURL: refusingURL, deadline: .seconds(300), retryPolicy: Self.fast),
      transport: sharedTransport)
    let error = await networkError { _ = try await service.send(GetUser()) }
    guard case .transport(let urlError) = error?.kind else {
      Issue.record("expected .transport, got \(String(describing: error))")
      return
    }
    #expect(urlError.code == .cannotConnectToHost)
    #expect(error.map(RetryPolicy.isTransient) == true)
  }
}
