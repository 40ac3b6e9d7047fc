import DemoKit
import DemoKitTesting
import Foundation
import Strata
import StrataTesting
import Testing

@MainActor
@Suite("Offline-first posts: the device's list first, pending posts, sync")
struct OfflinePostsTests {
  func makePosts(_ script: FakeScript, connectivity: Connectivity? = nil) -> (OfflinePosts, String)
  {
    let directory = NSTemporaryDirectory() + "strata-offline-\(UUID().uuidString)"
    let store = LocalStore<Post>(file: DocumentFile(path: directory + "/posts.json", version: 1))
    return (
      OfflinePosts(
        store: store, repository: FakePostsRepository(script: script), connectivity: connectivity),
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
    try await gate.waitUntilEntered(limit: .seconds(5))
    #expect(model.items.map(\.item.title) == ["Mine"] && model.isStale, "the device's, at once")
    #expect(model.items.first?.status == .pending)
    gate.open()
    await loading.value
    #expect(!model.isStale)
    #expect(Set(model.items.map(\.item.title)) == ["Mine", "Post 1", "Post 2", "Post 3"])
    #expect(model.items.first { $0.item.title == "Mine" }?.status == .pending, "kept")
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
    #expect(script.calls == ["create(Offline, b, 2)"], "sent once")
    let keys = try await posts.outbox().map(\.idempotencyKey)
    #expect(keys.count == 1)
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
}

@Suite("Offline-first todos: a toggle kept pending, then sent")
struct OfflineTodosTests {
  @Test func aToggleShowsAtOnceAndSyncSendsItOnce() async throws {
    let directory = NSTemporaryDirectory() + "strata-offline-todos-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let script = FakeScript()
    let todos = OfflineTodos(
      store: LocalStore(file: DocumentFile(path: directory + "/todos.json", version: 1)),
      repository: FakeTodosRepository(script: script))
    let page = try await todos.refresh(limit: 3)
    #expect(page.map(\.status) == [.synced, .synced, .synced])
    let kept = try await todos.toggle(.previews[0], offline: true)
    #expect(kept.item.completed && kept.status == .pending)
    #expect(script.calls == ["list(3, 0)"], "nothing sent yet")
    let again = try await todos.refresh(limit: 3)
    #expect(again.first { $0.item.id == 1 }?.status == .pending, "a fresh page keeps the change")
    let outcomes = try await todos.sync()
    #expect(outcomes.map(\.status) == [.synced])
    #expect(
      try await todos.local().first { $0.item.id == 1 }.map { ($0.item.completed, $0.status) } ?? (
        false, .failed
      ) == (true, .synced))
    _ = try await todos.sync()
    #expect(script.calls.filter { $0.hasPrefix("setCompleted") } == ["setCompleted(1, true)"])
  }
}
