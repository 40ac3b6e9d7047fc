import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

@Suite("TTLCache races")
struct TTLCacheTests {
  final class LoadCounter: Sendable {
    let count = AtomicInt(0)
  }

  @Test func concurrentMissesShareOneLoad() async throws {
    let cache = TTLCache<Int, String>(ttl: .seconds(60))
    let gate = Gate()
    let loads = LoadCounter()
    let tasks = (0..<10).map { _ in
      Task {
        try await cache.value(for: 1) {
          loads.count.add(1)
          await gate.pass()
          return "loaded"
        }
      }
    }
    try await gate.waitUntilEntered()
    for _ in 0..<50 { await Task.yield() }  // let the other nine reach the cache
    gate.open()
    for task in tasks { #expect(try await task.value.value == "loaded") }
    #expect(loads.count.load() == 1)
    #expect(await cache.value(for: 1) == "loaded")
  }

  @Test func anInvalidationWinsOverALoadInFlight() async throws {
    let cache = TTLCache<Int, String>(ttl: .seconds(60))
    let gate = Gate()
    let stale = Task {
      try await cache.value(for: 1) {
        await gate.pass()
        return "before the mutation"
      }
    }
    try await gate.waitUntilEntered()
    await cache.removeAll()  // a mutation happened while the old value was on its way
    gate.open()
    #expect(try await stale.value.value == "before the mutation", "its caller still gets it")
    #expect(await cache.value(for: 1) == nil, "but it is not stored")
    let fresh = try await cache.value(for: 1) { "after the mutation" }
    #expect(fresh.value == "after the mutation" && !fresh.cached)
  }

  @Test func aFailedLoadIsNotStoredAndTheNextCallLoadsAgain() async throws {
    let cache = TTLCache<Int, String>(ttl: .seconds(60))
    await #expect(throws: URLError.self) {
      _ = try await cache.value(for: 1) { throw URLError(.timedOut) }
    }
    #expect(try await cache.value(for: 1) { "ok" }.value == "ok")
  }
}
