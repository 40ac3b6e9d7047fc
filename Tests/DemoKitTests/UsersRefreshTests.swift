import DemoKit
import Foundation
import Strata
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The users list over the real repository and `NetworkService`, with the HTTP cache: a
/// refresh asks the server past both caches (a 304 here), and with the server away the list
/// says how old the page it shows is.
@MainActor
@Suite("Users: refresh means fresh, offline says how old")
struct UsersRefreshTests {
  final class WallClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
  }

  nonisolated static let page =
    #"{"users":[{"id":1,"firstName":"Emily","lastName":"J"}],"total":1,"skip":0,"limit":10}"#

  @Test func aRefreshRevalidatesAndAnOfflinePageSaysHowOldItIs() async throws {
    let clock = WallClock()
    let transport = MockTransport { request, index in
      switch index {
      case 1:
        return try MockTransport.response(
          request, status: 200, body: Self.page,
          headers: ["ETag": "W/\"1\"", "Cache-Control": "max-age=60"])
      case 2:
        #expect(request.value(forHTTPHeaderField: "If-None-Match") == "W/\"1\"")
        return try MockTransport.response(request, status: 304, body: "", headers: [:])
      default: throw URLError(.notConnectedToInternet)
      }
    }
    var options = NetworkOptions(
      baseURL: URL(string: "https://api.example")!, deadline: .seconds(300), retryPolicy: .none)
    options.cache = HTTPCache(now: { clock.now })
    let network = NetworkService(options: options, transport: transport, clock: ManualClock())
    let model = UsersViewModel(repo: APIUsersRepository(network: network, now: { clock.now }))

    await model.send(.load)
    #expect(model.output.source == .network && model.output.users.count == 1)
    await model.send(.load)
    #expect(transport.requestCount == 1, "a plain load may use what is kept")

    let refreshing = Task { await model.send(.refresh) }
    await refreshing.value
    #expect(transport.requestCount == 2, "a refresh asks the server, fresh copies or not")
    #expect(model.output.source == .revalidated && !model.output.isRefreshing)
    #expect(model.output.notice == nil)

    clock.advance(12 * 60)
    await model.send(.refresh)
    #expect(transport.requestCount == 3)
    #expect(model.output.source == .stale(age: 720) && model.output.users.count == 1)
    #expect(model.output.notice == "offline — from 12 min ago")
    #expect(model.output.state == .idle)
  }
}
