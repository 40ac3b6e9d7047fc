import Foundation
import StrataTesting
import Testing

@testable import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What both tiers of the HTTP cache evict by, and what they never keep.
@Suite("HTTP cache: least recently used, within budget, nothing secret")
struct RecencyListTests {
  /// Exactly at the budget nothing goes; past it, the least recently *used* goes first — not
  /// the first one put.
  @Test func theLeastRecentlyUsedGoesOnlyPastTheBudget() {
    var list = RecencyList<Int>()
    #expect(list.put("a", 1, size: 10, budget: 30).isEmpty)
    #expect(list.put("b", 2, size: 10, budget: 30).isEmpty)
    #expect(list.put("c", 3, size: 10, budget: 30).isEmpty, "exactly the budget: all kept")
    #expect(list.use("a") == 1)
    #expect(list.put("d", 4, size: 10, budget: 30) == ["b"], "b was used least recently, not a")
    #expect(list.put("e", 5, size: 25, budget: 30) == ["c", "a", "d"])
    #expect(list.count == 1 && list.bytes == 25)
  }

  /// `Set-Cookie` is kept neither in memory nor in the entry file.
  @Test func aCookieReachesNeitherMemoryNorDisk() async throws {
    let root = NSTemporaryDirectory() + "strata-cookie-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let cache = HTTPCache(
      app: "strata-tests", origin: exampleOrigin,
      environment: ["XDG_CACHE_HOME": root, "HOME": root],
      now: { Date(timeIntervalSince1970: 1_800_000_000) })
    var options = NetworkOptions(
      baseURL: URL(string: "https://api.example")!, deadline: .seconds(300))
    options.cache = cache
    let transport = MockTransport.successful(
      json: userJSON, headers: ["Cache-Control": "max-age=60", "Set-Cookie": "sid=s3cr3t-c00kie"])
    let network = NetworkService(options: options, transport: transport, clock: ManualClock())
    _ = try await network.send(GetUser())
    let request = URLRequest(url: URL(string: "https://api.example/users/1")!)
    let kept = try #require(cache.lookUp(request, owner: .device))
    #expect(kept.headers["set-cookie"] == nil && kept.headers["cache-control"] == "max-age=60")
    let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
    let bytes = names.compactMap { FileManager.default.contents(atPath: root + "/" + $0) }
    #expect(!bytes.isEmpty && !bytes.contains { $0.range(of: Data("s3cr3t".utf8)) != nil })
  }

  /// A 304's `ETag` replaces the kept one: the next revalidation sends the new tag.
  @Test func a304sTagReplacesTheKeptOne() async throws {
    let transport = MockTransport { request, index in
      let headers: [String: String] =
        index == 1
        ? ["Cache-Control": "no-cache", "ETag": "\"a\""]
        : ["Cache-Control": "no-cache", "ETag": "W/\"a\""]
      return try MockTransport.response(
        request, status: index == 1 ? 200 : 304, body: index == 1 ? userJSON : "",
        headers: headers)
    }
    var options = NetworkOptions(
      baseURL: URL(string: "https://api.example")!, deadline: .seconds(300), retryPolicy: .none)
    options.cache = HTTPCache(now: { Date(timeIntervalSince1970: 1_800_000_000) })
    let network = NetworkService(options: options, transport: transport, clock: ManualClock())
    _ = try await network.send(GetUser())
    #expect(try await network.send(GetUser()).source == .revalidated)
    #expect(try await network.send(GetUser()).source == .revalidated)
    let tags = transport.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") }
    #expect(tags == [nil, "\"a\"", "W/\"a\""])
  }
}
