import DemoKit
import DemoKitTesting
import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

@MainActor
@Suite("Offline-first posts: the device's list first, pending posts, sync")
struct OfflinePostsTests {
  func makePosts(_ script: FakeScript, connectivity: Connectivity? = nil) -> (OfflinePosts, String)
  {
    let directory = NSTemporaryDirectory() + "strata-offline-\(UUID().uuidString)"
    let store = LocalStore<Post>(path: directory + "/posts")
    return (
      OfflinePosts(
        stores: { _ in store }, owner: { .device }, repository: FakePostsRepository(script: script),
        connectivity: connectivity),
      directory
    )
  }

  @Test func theDevicesListShowsAtOnceThenTheServersPage() async throws {
    let script = FakeScript()
    let gate = script.hold("list")
    let (posts, directory) = makePosts(script)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    _ = try await posts.create(PostDraft(title: "Mine", body: "b", userId: 1), offline: true)
    let model = LocalPostsViewModel(posts: posts)
    let loading = Task { await model.load(limit: 3) }
    try await gate.waitUntilEntered()
    #expect(model.items.map(\.item.title) == ["Mine"] && model.isStale, "the device's, at once")
    #expect(model.items.first?.status == .pending)
    gate.open()
    await loading.value
    #expect(!model.isStale)
    #expect(Set(model.items.map(\.item.title)) == ["Mine", "Post 1", "Post 2", "Post 3"])
    #expect(model.items.first { $0.item.title == "Mine" }?.status == .pending, "kept")
  }

  /// The screen follows the device: a post another process keeps (here, another store on the
  /// same files) appears without a reload.
  @Test(.timeLimit(.minutes(1)))
  func theScreenFollowsWhatAnotherProcessKeeps() async throws {
    let (posts, directory) = makePosts(FakeScript())
    defer { try? FileManager.default.removeItem(atPath: directory) }
    _ = try await posts.create(PostDraft(title: "Mine", body: "b", userId: 1), offline: true)
    let model = LocalPostsViewModel(posts: posts)
    let following = Task { await model.follow() }
    defer { following.cancel() }
    // Hang guards, not verdicts: the first list, then the other process's post in it.
    while model.items.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
    let other = LocalStore<Post>(path: directory + "/posts")
    try await other.merge(
      [("post-7", Post(id: 7, title: "From elsewhere", body: "b", userId: 1))], complete: false)
    while model.items.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
    #expect(Set(model.items.map(\.item.title)) == ["Mine", "From elsewhere"])
  }

  @Test func offlineAPostIsPendingAtOnceAndSyncSendsItOnce() async throws {
    let script = FakeScript()
    let connectivity = Connectivity(isOnline: false)
    let (posts, directory) = makePosts(script, connectivity: connectivity)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let model = LocalPostsViewModel(posts: posts)
    await model.create(PostDraft(title: "Offline", body: "b", userId: 2))
    #expect(model.items.map(\.status) == [.pending] && script.calls.isEmpty, "nothing sent")
    connectivity.set(online: true)
    await model.sync()
    #expect(model.items.map(\.status) == [.synced] && model.items.first?.item.id == 6)
    await model.sync()
    let keys = try await posts.outbox().map(\.idempotencyKey)
    #expect(keys.count == 1)
    #expect(script.calls == keys.map { "create(Offline, b, 2, key \($0))" }, "sent once, keyed")
  }

  @Test func aRefusedPostIsMarkedFailedWithTheServersReason() async throws {
    let script = FakeScript()
    script.fail(
      "create", with: NetworkError.server(status: 404, serverMessage: "User with id '9' not found"))
    let (posts, directory) = makePosts(script)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let item = try await posts.create(PostDraft(title: "Orphan", body: "b", userId: 9))
    #expect(item.status == .failed && item.message == "HTTP 404: User with id '9' not found")
    _ = try await posts.sync()
    #expect(script.calls.count == 1, "a refused change is not sent again")
  }

  /// The live repository over a real `NetworkService`: what the transport answers decides.
  func livePosts(_ transport: MockTransport, _ directory: String) -> OfflinePosts {
    var options = NetworkOptions(baseURL: URL(string: "https://api.test")!, deadline: .seconds(300))
    options.retryPolicy = .none
    options.serverMessageFormat = .dummyJSON
    return OfflinePosts(
      stores: { _ in LocalStore(path: directory + "/posts") }, owner: { .device },
      repository: APIPostsRepository(
        network: NetworkService(options: options, transport: transport)))
  }

  /// Answers that are not the API refusing this post — a captive portal's page, a 401 with no
  /// session to refresh, a body over the size limit, a proxy's HTML 404 — keep it
  /// pending; the API's own 400 fails it; once the network is right it is sent.
  @Test(arguments: ["portal", "401", "too large", "html 404"])
  func answersThatAreNotRefusalsKeepThePostPending(_ answer: String) async throws {
    let directory = NSTemporaryDirectory() + "strata-offline-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let healthy = Lock(false)
    let transport = MockTransport { request, _ in
      if healthy.withLock({ $0 }) {
        return try MockTransport.response(
          request, status: 201, body: #"{"id":252,"title":"T","body":"B","userId":1}"#)
      }
      switch answer {
      case "portal":
        return try MockTransport.response(
          request, status: 200, body: "<html><body>Log in to the Wi-Fi</body></html>",
          headers: ["Content-Type": "text/html"])
      case "401": return try MockTransport.response(request, status: 401)
      case "html 404":
        return try MockTransport.response(
          request, status: 404, body: "<html>Not Found</html>",
          headers: ["Content-Type": "text/html"])
      default: throw URLError(.dataLengthExceedsMaximum)
      }
    }
    let posts = livePosts(transport, directory)
    let item = try await posts.create(PostDraft(title: "T", body: "B", userId: 1), offline: true)
    #expect(item.status == .pending)
    #expect(try await posts.sync().map(\.entry.status) == [.pending])
    #expect(try await posts.local().map(\.status) == [.pending])
    healthy.withLock { $0 = true }
    #expect(try await posts.sync().map(\.entry.status) == [.synced])
    #expect(try await posts.local().map(\.item.id) == [252])
  }

  @Test func theAPIsOwnRefusalFailsThePost() async throws {
    let directory = NSTemporaryDirectory() + "strata-offline-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let posts = livePosts(
      .successful(json: #"{"message":"Title is required"}"#, status: 400), directory)
    _ = try await posts.create(PostDraft(title: "T", body: "B", userId: 1), offline: true)
    let outcome = try #require(try await posts.sync().first)
    #expect(
      outcome.entry.status == .failed && outcome.entry.message == "HTTP 400: Title is required")
  }
}
