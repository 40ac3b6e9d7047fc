import DemoKitTesting
import Foundation
import StrataConcurrency
import StrataSandbox
import StrataTesting
import Testing

@testable import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Identical reads at one moment reach the sandbox once, counted in its journal; two
/// accounts' reads never share.
struct CoalescingIntegrationTests {
  @Test func fiftyIdenticalReadsReachTheServerOnceAndTwoAccountsTwice() async throws {
    let server = SandboxServer()
    try server.start()
    defer { server.stopAndWait() }
    let release = DispatchSemaphore(value: 0)
    server.faults.add(
      .init(method: "GET", path: "/auth/me", count: 2, action: .hold { release.wait() }))
    let plain = sandboxService(server)
    struct Named: Decodable, Sendable { let username: String }
    // The sandbox's seed: user 1's password is `emilyspass`, every other's `<username>pass`.
    let second = try await plain.send(Request<Named>(path: "users/2")).value.username
    var sessions: [NetworkService] = []
    for (username, password) in [("emilys", "emilyspass"), (second, second + "pass")] {
      let login = try await plain.send(
        DummyJSONAuth.login(username: username, password: password, expiresInSeconds: 60)
      ).value
      sessions.append(sandboxService(server, authenticator: sandboxSession(server, plain, login)))
    }
    let me = Request<TestUser>(path: "auth/me", requiresAuth: true)
    try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<50 {
        let service = sessions[index % 2]
        group.addTask { try await service.send(me).value.id }
      }
      try await waitUntil("both accounts' reads at the server") {
        server.journal.count(path: "/auth/me") == 2
      }
      for service in sessions {
        let call = try await service.authorise(me, label: "GET /auth/me")
        let key = try #require(InFlightReads.key(of: call))
        try await waitUntil("25 callers on each") { service.inFlight.waiters(for: key) == 25 }
      }
      release.signal()
      release.signal()
      var ids: [Int: Int] = [:]
      for try await id in group { ids[id, default: 0] += 1 }
      #expect(ids.values.sorted() == [25, 25], "each caller its own account's answer")
    }
    #expect(server.journal.count(path: "/auth/me") == 2)
  }
}
