import DemoKit
import Foundation
import Strata
import StrataSandbox
import Testing

/// Every change a user can make to posts and todos, online and offline, against the sandbox
/// over the real `URLSession`: as DummyJSON answers (a write answered, nothing kept) and with
/// `keepsWrites`, where a post made offline can be edited and deleted once the server has it.
@Suite("Every change, online and offline, against the sandbox")
struct EveryChangeTests {
  /// Posts and todos on a device of their own, sent to `server`.
  struct Device {
    let directory: String
    let posts: OfflinePosts
    let todos: OfflineTodos

    /// A device with its own files (or those of `directory`: the same device, opened again)
    /// whose posts settle conflicts as `conflicts` says.
    init(
      _ server: SandboxServer,
      directory: String = NSTemporaryDirectory() + "strata-every-\(UUID().uuidString)",
      conflicts: ConflictPolicy = .ask
    ) {
      self.directory = directory
      var options = NetworkOptions(baseURL: server.baseURL, deadline: .seconds(300))
      options.serverMessageFormat = .dummyJSON
      options.retryPolicy.baseDelay = .milliseconds(1)
      let network = NetworkService(options: options)
      let postStore = LocalStore<Post>(path: directory + "/posts")
      let todoStore = LocalStore<Todo>(path: directory + "/todos")
      posts = OfflinePosts(
        stores: { _ in postStore }, owner: { .device },
        repository: APIPostsRepository(network: network), conflicts: conflicts)
      todos = OfflineTodos(
        stores: { _ in todoStore }, owner: { .device },
        repository: APITodosRepository(network: network))
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
  }

  static func keeping() -> SandboxServer.Configuration {
    var configuration = SandboxServer.Configuration()
    configuration.keepsWrites = true
    return configuration
  }

  @Test func editsOfAPostNotYetSentFoldIntoOnePOST() async throws {
    try await withSandbox { server in
      let device = Device(server)
      defer { device.remove() }
      let made = try await device.posts.create(
        PostDraft(title: "Draft", body: "Text", userId: 1), offline: true)
      let local = try #require(made.localId.map(ItemID.local))
      _ = try await device.posts.edit(local, PostEdit(title: "Final"), offline: true)
      _ = try await device.posts.edit(local, PostEdit(body: "Final text"), offline: true)
      #expect(try await device.posts.outbox().count == 1)
      #expect(server.journal.entries.isEmpty, "offline: nothing sent")
      let outcomes = try await device.posts.sync()
      #expect(outcomes.map(\.entry.status) == [.synced])
      #expect(server.journal.count(method: "POST", path: "/posts/add") == 1)
      let body = try #require(server.journal.entries.first?.body)
      #expect(String(decoding: body, as: UTF8.self).contains("Final text"))
      let kept = try #require(try await device.posts.local().first)
      #expect(kept.item.title == "Final" && kept.item.id == 151 && kept.localId == made.localId)
    }
  }

  @Test func aDeletedPostNeverSentSendsNothing() async throws {
    try await withSandbox { server in
      let device = Device(server)
      defer { device.remove() }
      let made = try await device.posts.create(
        PostDraft(title: "Oops", body: "Text", userId: 1), offline: true)
      let deletion = try await device.posts.delete(.local(try #require(made.localId)))
      #expect(deletion == .withdrawn)
      #expect(try await device.posts.sync().isEmpty && server.journal.entries.isEmpty)
      #expect(try await device.posts.local().isEmpty)
    }
  }

  /// DummyJSON answers a create but keeps nothing: an edit of that post afterwards is its 404,
  /// shown as a dead letter with the server's message.
  @Test func againstTheFaithfulSandboxAnEditOfAPostItMadeIsItsRefusal() async throws {
    try await withSandbox { server in
      let device = Device(server)
      defer { device.remove() }
      let made = try await device.posts.create(PostDraft(title: "Mine", body: "b", userId: 1))
      #expect(made.status == .synced && made.item.id == 151)
      let edited = try await device.posts.edit(
        .local(try #require(made.localId)), PostEdit(title: "Renamed"))
      #expect(edited.status == .failed)
      #expect(edited.message == "HTTP 404: Post with id '151' not found")
      // Found gone by the read that checks it has not changed since: nothing is written.
      #expect(server.journal.count(method: "GET", path: "/posts/151") == 1)
      #expect(server.journal.count(method: "PUT", path: "/posts/151") == 0)
    }
  }

  /// With writes kept, the whole flow: made offline, synced, then edited and deleted by its
  /// local id — each to the server's id.
  @Test func withWritesKeptAPostMadeOfflineIsEditedAndDeletedByItsLocalID() async throws {
    try await withSandbox(Self.keeping()) { server in
      let device = Device(server)
      defer { device.remove() }
      let made = try await device.posts.create(
        PostDraft(title: "Offline", body: "b", userId: 1), offline: true)
      let local = ItemID.local(try #require(made.localId))
      _ = try await device.posts.sync()
      let edited = try await device.posts.edit(local, PostEdit(title: "Renamed"))
      #expect(edited.status == .synced && edited.item.title == "Renamed" && edited.item.id == 151)
      #expect(try await device.posts.delete(local) == .deleted)
      #expect(server.journal.count(method: "PUT", path: "/posts/151") == 1)
      #expect(server.journal.count(method: "DELETE", path: "/posts/151") == 1)
      let network = NetworkService(options: NetworkOptions(baseURL: server.baseURL))
      await #expect(throws: NetworkError.self, "deleted on the server") {
        _ = try await network.send(Request<Post>(path: "posts/151"))
      }
    }
  }

  /// A todo added, edited and toggled offline goes as one `POST /todos/add` with it all; an
  /// edit of a server todo goes as a `PUT`, a deletion as a `DELETE`, in the order made —
  /// each after a read that checks the todo has not changed since (else: a conflict).
  @Test func todoChangesGoInOrderFoldedWhereTheyCan() async throws {
    try await withSandbox { server in
      let device = Device(server)
      defer { device.remove() }
      _ = try await device.todos.refresh()  // the page, todo 3 as the server has it
      server.journal.reset()
      let added = try await device.todos.add(TodoDraft(todo: "New", userId: 2), offline: true)
      let local = ItemID.local(try #require(added.localId))
      _ = try await device.todos.edit(local, offline: true) { _ in TodoEdit(todo: "Newer") }
      _ = try await device.todos.toggle(local, offline: true)
      _ = try await device.todos.edit(.server(3), offline: true) { _ in TodoEdit(todo: "Edited") }
      #expect(try await device.todos.delete(.server(3), offline: true) != .withdrawn)
      #expect(try await device.todos.outbox().map(\.kind) == ["todo.add", "todo.delete"])
      await #expect(throws: ValidationError.self) {
        try await device.todos.edit(local, offline: true) { _ in TodoEdit(todo: "  ") }
      }
      #expect(try await device.todos.sync().map(\.entry.status) == [.synced, .synced])
      let methods = server.journal.entries.map { "\($0.method) \($0.path)" }
      // The deletion checks first that todo 3 is still what it was deleted from.
      #expect(methods == ["POST /todos/add", "GET /todos/3", "DELETE /todos/3"])
      let body = String(decoding: server.journal.entries.first?.body ?? Data(), as: UTF8.self)
      #expect(body.contains("Newer") && body.contains("true"), "\(body)")
    }
  }
}
