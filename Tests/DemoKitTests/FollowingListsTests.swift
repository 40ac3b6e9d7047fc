import DemoKit
import DemoKitTesting
import Foundation
import Strata
import StrataTesting
import Testing

/// The todos and posts lists follow the device: what another process keeps or syncs shows on
/// the list without a reload.
@MainActor
@Suite("Lists that follow the device")
struct FollowingListsTests {
  @Test(.timeLimit(.minutes(1)))
  func aSyncInAnotherProcessTurnsThePendingRowSynced() async throws {
    let directory = NSTemporaryDirectory() + "strata-follow-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let script = FakeScript()
    // Each process opens the store on the same files.
    func todos() -> OfflineTodos {
      let store = LocalStore<Todo>(path: directory + "/todos")
      return OfflineTodos(
        stores: { _ in store }, owner: { .device },
        repository: FakeTodosRepository(script: script))
    }
    let model = TodosViewModel(
      repo: FakeTodosRepository(script: script),
      offline: OfflineRoute(todos(), connectivity: nil))
    await model.load(limit: 3)
    _ = try await model.toggle(.server(2), keepOffline: true)
    #expect(model.rows.first { $0.id == .server(2) }?.status == .pending)
    let following = Task { await model.follow() }
    defer { following.cancel() }
    let elsewhere = todos()
    _ = try await elsewhere.add(TodoDraft(todo: "From elsewhere", userId: 1), offline: true)
    // Hang guards, not verdicts: the other process's todo on top, then its sync shown.
    while model.rows.first?.item.todo != "From elsewhere" {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(model.rows.count == 4 && model.rows.first?.status == .pending)
    _ = try await elsewhere.sync()
    while model.rows.contains(where: { $0.status == .pending }) {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(model.rows.first { $0.id == .server(2) }?.item.completed == true, "synced, kept")
    #expect(model.rows.count == 4, "the row it had, not another")
  }

  @Test func withoutTheOfflineFeatureFollowingEndsAtOnce() async {
    let model = PostsViewModel(repo: FakePostsRepository(script: FakeScript()))
    await model.follow()
    #expect(model.rows.isEmpty)
  }
}
