import DemoKitTesting
import Foundation
import Strata
import StrataConcurrency
import StrataSandbox
import StrataTesting
import Testing

@Suite("Auth under load (real URLSession against the sandbox)")
struct AuthLoadTests {

  @Test func twoHundredConcurrentRequestsAcrossAnExpiryShareOneRefresh() async throws {
    let clock = Lock(Date(timeIntervalSince1970: 1_800_000_000))
    try await withSandbox(.init(now: { clock.withLock { $0 } })) { server in
      let plain = sandboxService(server)
      let session = sandboxSession(
        server, plain, try await plain.send(DummyJSONAuth.login(expiresInSeconds: 60)).value)
      let service = sandboxService(server, authenticator: session)
      #expect(try await service.send(GetMe()).value.id == 1)
      clock.withLock { $0 += 120 }  // expired for the server

      let ids = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<200 { group.addTask { try await service.send(GetMe()).value.id } }
        return try await group.reduce(into: [Int]()) { $0.append($1) }
      }
      #expect(ids.count == 200 && ids.allSatisfy { $0 == 1 })
      #expect(server.journal.count(method: "POST", path: "/auth/refresh") == 1)
      #expect(await session.refreshCount == 1)
    }
  }

  @Test func refreshEndpointThatKeepsRejectingSignsOutOnceWithoutALoop() async throws {
    let clock = Lock(Date(timeIntervalSince1970: 1_800_000_000))
    try await withSandbox(.init(now: { clock.withLock { $0 } })) { server in
      let plain = sandboxService(server)
      let session = sandboxSession(
        server, plain, try await plain.send(DummyJSONAuth.login(expiresInSeconds: 60)).value)
      let events = session.updates()
      let service = sandboxService(server, authenticator: session)
      server.faults.fail(403, method: "POST", path: "/auth/refresh", count: 1000)
      clock.withLock { $0 += 120 }

      let failures = await withTaskGroup(of: Bool.self) { group in
        for _ in 0..<50 {
          group.addTask {
            do {
              _ = try await service.send(GetMe())
              return false
            } catch let error as NetworkError where error.isUnauthorized {
              return true
            } catch {
              return false
            }
          }
        }
        return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
      }
      #expect(failures == 50)
      for _ in 0..<5 { _ = await networkError { _ = try await service.send(GetMe()) } }
      #expect(server.journal.count(method: "POST", path: "/auth/refresh") == 1, "no loop")
      #expect(await session.isSignedIn == false)
      var iterator = events.makeAsyncIterator()
      #expect(await iterator.next() == .signedOut(.refreshRejected))
    }
  }
}
