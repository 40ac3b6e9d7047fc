import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Identical reads in flight at one moment share one request; each caller decodes its own
/// value, a cancelled one leaves the others their answer, and nothing is shared across
/// sessions, headers or a request that opts out.
struct CoalescingTests {
  /// A transport that holds every exchange until `release()`.
  private final class Gate: Sendable {
    private let open = Lock(false)
    func release() { open.withLock { $0 = true } }
    func wait() async throws {
      while !open.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
    }
  }

  private static func held(_ gate: Gate) -> MockTransport {
    MockTransport { request, _ in
      try await gate.wait()
      return try MockTransport.response(request, status: 200, body: userJSON)
    }
  }

  private static func key(_ service: NetworkService, _ request: Request<TestUser>) async throws
    -> String
  {
    let call = try await service.authorise(request, label: "GET /users/1")
    return try #require(InFlightReads.key(of: call))
  }

  @Test func fiftyIdenticalReadsAreOneRequest() async throws {
    let gate = Gate()
    let transport = Self.held(gate)
    let service = makeService(transport)
    let key = try await Self.key(service, GetUser().request)
    try await withThrowingTaskGroup(of: TestUser.self) { group in
      for _ in 0..<50 { group.addTask { try await service.send(GetUser()).value } }
      try await waitUntil("50 callers on one request") { service.inFlight.waiters(for: key) == 50 }
      gate.release()
      var users = 0
      for try await user in group {
        #expect(user == TestUser(id: 1, firstName: "Emily"))
        users += 1
      }
      #expect(users == 50)
    }
    #expect(transport.requestCount == 1)
  }

  @Test func aCancelledCallerLeavesTheOthersTheirAnswer() async throws {
    let gate = Gate()
    let transport = Self.held(gate)
    let service = makeService(transport)
    let key = try await Self.key(service, GetUser().request)
    let first = Task { try await service.send(GetUser()).value }
    let second = Task { try await service.send(GetUser()).value }
    try await waitUntil("two callers") { service.inFlight.waiters(for: key) == 2 }
    first.cancel()
    await #expect(throws: (any Error).self) { try await first.value }
    try await waitUntil("one caller left") { service.inFlight.waiters(for: key) == 1 }
    gate.release()
    #expect(try await second.value.id == 1)
    #expect(transport.requestCount == 1)
  }

  @Test func otherHeadersOtherSessionsAndAnOptOutEachSendTheirOwn() async throws {
    let gate = Gate()
    let transport = Self.held(gate)
    let auth = FakeAuthenticator(token: "t", refreshed: "t")
    let service = makeService(transport, authenticator: auth)
    var signedIn = GetUser().request
    signedIn.requiresAuth = true
    var otherHeader = GetUser().request
    otherHeader.headers["Accept-Language"] = "de"
    var own = GetUser().request
    own.coalesces = false
    let requests = [GetUser().request, signedIn, otherHeader, own, GetUser().request]
    try await withThrowingTaskGroup(of: Void.self) { group in
      for request in requests { group.addTask { _ = try await service.send(request) } }
      try await waitUntil("four requests out") { transport.requestCount == 4 }
      let plainKey = try await Self.key(service, GetUser().request)
      try await waitUntil("the plain read shared") { service.inFlight.waiters(for: plainKey) == 2 }
      gate.release()
      try await group.waitForAll()
    }
    #expect(transport.requestCount == 4)
  }
}
