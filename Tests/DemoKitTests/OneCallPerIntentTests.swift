import DemoKit
import DemoKitTesting
import Foundation
import Strata
import Testing

/// "New post" and "toggle a todo" are one call each: the view model weighs the caller's wish,
/// the offline feature and the route in one place, checks once, and throws what went wrong.
@MainActor
@Suite("One call per intent: create a post, toggle a todo")
struct OneCallPerIntentTests {
  struct Device {
    let directory = NSTemporaryDirectory() + "strata-intent-\(UUID().uuidString)"
    let script = FakeScript()
    let connectivity: Connectivity
    init(online: Bool) { connectivity = Connectivity(isOnline: online) }
    func posts(offlineFeature: Bool = true) -> PostsViewModel {
      let offline = OfflinePosts(
        stores: { _ in LocalStore(path: directory + "/posts") }, owner: { .device },
        repository: FakePostsRepository(script: script), connectivity: connectivity)
      return PostsViewModel(
        repo: FakePostsRepository(script: script),
        offline: OfflineRoute(offlineFeature ? offline : nil, connectivity: connectivity))
    }
    func todos() -> (TodosViewModel, OfflineTodos) {
      let offline = OfflineTodos(
        stores: { _ in LocalStore(path: directory + "/todos") }, owner: { .device },
        repository: FakeTodosRepository(script: script), connectivity: connectivity)
      return (
        TodosViewModel(
          repo: FakeTodosRepository(script: script),
          offline: OfflineRoute(offline, connectivity: connectivity)),
        offline
      )
    }
    func remove() { try? FileManager.default.removeItem(atPath: directory) }
  }

  static let draft = PostDraft(title: "  Hello  ", body: "World", userId: 2)

  @Test func onlineAPostIsSentAtOnce() async throws {
    let device = Device(online: true)
    defer { device.remove() }
    let created = try await device.posts().create(Self.draft)
    #expect(created.status == .synced && created.item.id == 6 && created.item.title == "Hello")
    #expect(device.script.calls.count == 1, "sent once")
    #expect(device.script.calls.first?.hasPrefix("create(Hello, World, 2, key ") == true, "keyed")
  }

  @Test(arguments: [(online: true, keepOffline: true), (online: false, keepOffline: false)])
  func askedOrWithoutARouteAPostIsKeptAndNothingSent(online: Bool, keepOffline: Bool)
    async throws
  {
    let device = Device(online: online)
    defer { device.remove() }
    let posts = device.posts()
    let kept = try await posts.create(Self.draft, keepOffline: keepOffline)
    #expect(kept.status == .pending && kept.item.title == "Hello", "trimmed once, kept")
    #expect(posts.rows.map(\.item).first?.title == "Hello", "on the list at once")
    _ = try await posts.create(Self.draft, keepOffline: true)
    #expect(Set(posts.rows.map(\.id)).count == 2, "two kept posts, two ids")
    #expect(
      posts.rows.allSatisfy { row in
        guard case .local(let id) = row.id else { return false }
        return row.status == .pending && id.count == 8
      }, "shown as waiting, each under its one local id")
    #expect(device.script.calls.isEmpty, "no request")
  }

  /// Offline, an edit and a deletion show at once with their badge and send nothing; a post
  /// made offline is edited and withdrawn by its one local id; a page loaded later shows the
  /// device's changes over the server's.
  @Test func offlineEditsAndDeletionsShowAtOnceWithTheirBadge() async throws {
    let device = Device(online: true)
    defer { device.remove() }
    let posts = device.posts()
    await posts.load(limit: 3)
    device.connectivity.set(online: false)
    let edited = try await posts.edit(.server(2), PostEdit(title: "Renamed"))
    #expect(edited.status == .pending)
    #expect(posts.rows[1].item.title == "Renamed" && posts.rows[1].status == .pending)
    guard case .kept(let deleting) = try await posts.delete(.server(3)) else {
      Issue.record("offline, a deletion is kept")
      return
    }
    #expect(deleting.deleted && deleting.status == .pending)
    #expect(posts.rows.map(\.id) == [.server(1), .server(2)], "off the list at once")
    let made = try await posts.create(Self.draft)
    let local = ItemID.local(try #require(made.localId))
    #expect(posts.rows.first?.id == local && posts.rows.first?.status == .pending)
    _ = try await posts.edit(local, PostEdit(body: "Changed"))
    #expect(posts.rows.first?.item.body == "Changed")
    #expect(try await posts.delete(local) == .withdrawn)
    #expect(!posts.rows.contains { $0.id == local })
    #expect(device.script.calls == ["list(3, 0)"], "nothing sent")

    device.connectivity.set(online: true)
    let again = device.posts()
    await again.load(limit: 3)
    #expect(again.rows.map(\.id) == [.server(1), .server(2)], "the pending deletion hides 3")
    #expect(again.rows[1].item.title == "Renamed" && again.rows[1].status == .pending)
  }

  @Test func keepingOfflineWithTheFeatureOffIsRefusedAndNothingIsSent() async throws {
    let device = Device(online: true)
    defer { device.remove() }
    await #expect(throws: FeatureOff(.offline)) {
      try await device.posts(offlineFeature: false).create(Self.draft, keepOffline: true)
    }
    #expect(device.script.calls.isEmpty)
  }

  @Test(arguments: [true, false])
  func anInvalidPostIsRefusedBeforeAnyRoute(keepOffline: Bool) async throws {
    let device = Device(online: true)
    defer { device.remove() }
    let posts = device.posts()
    await #expect(throws: ValidationError.self) {
      try await posts.create(PostDraft(title: " ", body: "b", userId: 1), keepOffline: keepOffline)
    }
    #expect(posts.rows.map(\.item).isEmpty && device.script.calls.isEmpty)
  }

  @Test func aTodoTogglesOnlineOrOnTheDeviceThroughTheSameCall() async throws {
    let device = Device(online: true)
    defer { device.remove() }
    let (todos, offline) = device.todos()
    await todos.load(limit: 2)
    try await offline.keep(todos.rows.map(\.item))
    let sent = try await todos.toggle(.server(1))
    #expect(sent.status == .synced && sent.item.completed)
    #expect(device.script.calls.filter { $0.hasPrefix("update") }.count == 1)

    device.connectivity.set(online: false)
    let kept = try await todos.toggle(.server(2))
    #expect(kept.status == .pending && kept.item.completed, "no route: kept")
    #expect(todos.rows.map(\.item).last?.completed == true, "the list shows it")
    #expect(device.script.calls.filter { $0.hasPrefix("update") }.count == 1, "not sent")
    await #expect(throws: NotOnDevice("todo", .server(9))) { try await todos.toggle(.server(9)) }

    // The sync sends the change under the key it was kept with, not a new one.
    let entry = try #require(try await offline.collection.outbox().first)
    device.connectivity.set(online: true)
    _ = try await offline.collection.sync()
    #expect(device.script.calls.contains("update(2, true, key \(entry.idempotencyKey))"))
  }
}
