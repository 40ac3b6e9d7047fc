import Foundation
import Strata
import StrataSandbox
import SyncedTodos
import Testing

/// The article's adoption (`SyncedTodos`, an app's own module) against a sandbox that keeps
/// writes, honours `Idempotency-Key` and `If-Match`: identity, conflicts and exactly-once come
/// from Strata, not from the ~80 lines the app wrote.
@Suite("An outside app's synced todos")
struct SyncedTodosTests {
  /// One device: its own store directory, over the sandbox.
  struct Device {
    let directory =
      FileManager.default.temporaryDirectory.path + "/synced-todos-" + UUID().uuidString
    let todos: SyncedCollection<Todo>

    init(_ server: SandboxServer, conflicts: ConflictPolicy = .ask) throws {
      var options = NetworkOptions(baseURL: server.baseURL)
      options.retryPolicy.baseDelay = .milliseconds(1)
      let api = TodosAPI(network: NetworkService(options: options))
      let origin = try #require(Origin(server.baseURL))
      let directory = directory
      todos = SyncedCollection(
        api: api,
        stores: { owner in
          LocalStore(
            app: "outside", origin: origin, name: "todos", owner: owner,
            directory: directory)
        },
        owner: { .device }, conflicts: conflicts)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
  }

  static func sandbox() throws -> SandboxServer {
    var configuration = SandboxServer.Configuration()
    configuration.keepsWrites = true
    let server = SandboxServer(configuration: configuration)
    try server.start()
    return server
  }

  /// Made offline, edited by its local id (folded: one POST), numbered by the sync, then
  /// edited again by the same local id: the edit goes to the server's number.
  @Test func aTodoKeepsItsLocalIdForLife() async throws {
    let server = try Self.sandbox()
    defer { server.stopAndWait() }
    let device = try Device(server)
    defer { device.remove() }
    let made = try await device.todos.create(.init(todo: "Buy milk", userId: 1), offline: true)
    let local = try #require(made.localId)
    _ = try await device.todos.edit(.local(local), offline: true) { _ in .init(todo: "Buy oat milk")
    }
    #expect(try await device.todos.sync().map(\.entry.status) == [.synced])
    #expect(server.journal.count(method: "POST", path: "/todos/add") == 1, "folded")
    let numbered = try #require(try await device.todos.local().first { $0.localId == local })
    #expect(numbered.item.id > 0 && numbered.item.todo == "Buy oat milk")
    let done = try #require(
      try await device.todos.edit(.local(local)) { _ in .init(completed: true) })
    #expect(done.status == .synced && done.item.completed)
    #expect(server.journal.count(method: "PUT", path: "/todos/\(numbered.item.id)") == 1)
  }

  /// Two devices change one todo's text offline: the first lands, the second is a conflict
  /// holding theirs; `mine` sends it again `If-Match` on their version.
  @Test func aConflictKeepsBothSidesAndMineLandsOnTheirVersion() async throws {
    let server = try Self.sandbox()
    defer { server.stopAndWait() }
    let (a, b) = (try Device(server), try Device(server))
    defer {
      a.remove()
      b.remove()
    }
    _ = try await a.todos.refresh()
    _ = try await b.todos.refresh()
    _ = try await a.todos.edit(.server(1), offline: true) { _ in .init(todo: "From A") }
    _ = try await b.todos.edit(.server(1), offline: true) { _ in .init(todo: "From B") }
    #expect(try await a.todos.sync().map(\.entry.status) == [.synced])
    let outcomes = try await b.todos.sync()
    #expect(outcomes.map(\.entry.status) == [.conflicted])
    let conflict = try #require(outcomes.first?.entry.conflict)
    #expect(conflict.fields == ["todo"])
    let theirs = try JSONDecoder().decode(Todo.self, from: try #require(conflict.theirs))
    #expect(theirs.todo == "From A")
    #expect(try await b.todos.resolve(.server(1), keeping: .mine))
    #expect(try await b.todos.sync().map(\.entry.status) == [.synced])
    let put = try #require(server.journal.entries.last { $0.method == "PUT" })
    #expect(put.header("If-Match") == conflict.version)
  }

  /// The server makes the todo but its answer is lost: the next sync sends it again under the
  /// same key, and the sandbox answers with its first answer — one todo made.
  @Test func aCreationWhoseAnswerWasLostIsMadeOnce() async throws {
    let server = try Self.sandbox()
    defer { server.stopAndWait() }
    let device = try Device(server)
    defer { device.remove() }
    _ = try await device.todos.create(.init(todo: "Once", userId: 1), offline: true)
    server.faults.add(
      .init(method: "POST", path: "/todos/add", count: 4, action: .dropAfterHandling))
    #expect(try await device.todos.sync().map(\.entry.status) == [.pending])
    #expect(try await device.todos.sync().map(\.entry.status) == [.synced])
    let sent = server.journal.entries.filter { $0.path == "/todos/add" }
    #expect(sent.count > 1 && Set(sent.compactMap { $0.header("Idempotency-Key") }).count == 1)
    #expect(server.changesDone(path: "/todos/add") == 1, "made once")
  }
}
