import DemoKit
import Foundation
import Strata
import StrataSandbox
import Testing

/// Two devices edit one post offline against a sandbox that keeps writes (with strong ETags
/// and `If-Match`): nothing is ever overwritten unseen. A field changed on both sides is a
/// conflict, kept with both sides until resolved; a field changed on one side only merges.
@Suite("Conflicts: no edit silently overwrites a newer one")
struct ConflictTests {
  typealias Device = EveryChangeTests.Device

  /// Both devices list the first page online (what they edit from), then edit post 1 offline.
  private static func bothEdit(
    _ server: SandboxServer, first: PostEdit, second: PostEdit
  ) async throws -> (Device, Device) {
    let (a, b) = (Device(server), Device(server))
    _ = try await a.posts.refresh()
    _ = try await b.posts.refresh()
    _ = try await a.posts.edit(.server(1), first, offline: true)
    _ = try await b.posts.edit(.server(1), second, offline: true)
    return (a, b)
  }

  /// Post 1 as the server has it now.
  private static func onServer(_ server: SandboxServer) async throws -> Post {
    let network = NetworkService(options: NetworkOptions(baseURL: server.baseURL))
    return try await APIPostsRepository(network: network).latest(id: 1).item
  }

  @Test func theSecondSyncIsAConflictAndResolvingMineSendsItOnTheNewVersion() async throws {
    try await withSandbox(EveryChangeTests.keeping()) { server in
      let (a, b) = try await Self.bothEdit(
        server, first: PostEdit(title: "From A"), second: PostEdit(title: "From B"))
      defer {
        a.remove()
        b.remove()
      }
      #expect(try await a.posts.sync().map(\.entry.status) == [.synced])
      let outcomes = try await b.posts.sync()
      #expect(outcomes.map(\.entry.status) == [.conflicted])
      let conflict = try #require(outcomes.first?.entry.conflict)
      #expect(conflict.fields == ["title"] && conflict.version != nil)
      #expect(outcomes.first?.entry.message?.contains("(title)") == true)
      #expect(try await Self.onServer(server).title == "From A", "nothing overwritten")
      #expect(server.journal.count(method: "PUT", path: "/posts/1") == 1, "B's was never sent")
      let shown = try #require(try await b.posts.local().first { $0.item.id == 1 })
      #expect(shown.status == .conflicted && shown.item.title == "From B", "mine, shown")
      // A sync leaves it: not sent again until resolved.
      #expect(try await b.posts.sync().isEmpty)

      let id = try #require(outcomes.first?.entry.id)
      #expect(try await b.posts.collection.resolve(id, keeping: .mine))
      #expect(try await b.posts.sync().map(\.entry.status) == [.synced])
      #expect(try await Self.onServer(server).title == "From B")
      let put = try #require(server.journal.entries.last { $0.method == "PUT" })
      #expect(put.header("If-Match") == conflict.version)
    }
  }

  @Test func resolvingTheirsKeepsTheOtherDevicesTextAndSendsNothing() async throws {
    try await withSandbox(EveryChangeTests.keeping()) { server in
      let (a, b) = try await Self.bothEdit(
        server, first: PostEdit(title: "From A"), second: PostEdit(title: "From B"))
      defer {
        a.remove()
        b.remove()
      }
      _ = try await a.posts.sync()
      let id = try #require(try await b.posts.sync().first?.entry.id)
      #expect(try await b.posts.collection.resolve(id, keeping: .theirs))
      let shown = try #require(try await b.posts.local().first { $0.item.id == 1 })
      #expect(shown.status == .synced && shown.item.title == "From A")
      #expect(try await b.posts.sync().isEmpty)
      #expect(server.journal.count(method: "PUT", path: "/posts/1") == 1)
      #expect(try await b.posts.collection.resolve(id, keeping: .mine) == false, "settled")
    }
  }

  /// A field changed on one side only is no conflict: each device's field lands.
  @Test func fieldsChangedOnOneSideOnlyMerge() async throws {
    try await withSandbox(EveryChangeTests.keeping()) { server in
      let (a, b) = try await Self.bothEdit(
        server, first: PostEdit(title: "A's title"), second: PostEdit(body: "B's body"))
      defer {
        a.remove()
        b.remove()
      }
      #expect(try await a.posts.sync().map(\.entry.status) == [.synced])
      #expect(try await b.posts.sync().map(\.entry.status) == [.synced])
      let post = try await Self.onServer(server)
      #expect(post.title == "A's title" && post.body == "B's body")
    }
  }

  /// Once a device has a post's version (from its own write's answer), its next change goes
  /// `If-Match` on it; another device's write in between makes that a 412: a conflict when
  /// both changed the title, a merge (sent again on the new version) when not.
  @Test(arguments: [true, false])
  func aChangeMadeOnAKnownVersionMeetsItsPrecondition(sameField: Bool) async throws {
    try await withSandbox(EveryChangeTests.keeping()) { server in
      let (a, b) = (Device(server), Device(server))
      defer {
        a.remove()
        b.remove()
      }
      _ = try await b.posts.refresh()
      _ = try await b.posts.edit(.server(1), PostEdit(body: "B1"))  // sent: B learns its version
      _ = try await b.posts.edit(.server(1), PostEdit(title: "B2"), offline: true)
      let version = try #require(try await b.posts.outbox().last?.baseVersion, "from B1's answer")
      _ = try await a.posts.refresh()  // the page shows B1
      let theirs = sameField ? PostEdit(title: "A's title") : PostEdit(body: "A's body")
      #expect(try await a.posts.edit(.server(1), theirs).status == .synced)
      let outcomes = try await b.posts.sync()
      let put = try #require(server.journal.entries.first { $0.header("If-Match") == version })
      #expect(put.method == "PUT", "B2 went on its version, and was refused (412)")
      let post = try await Self.onServer(server)
      if sameField {
        #expect(outcomes.map(\.entry.status) == [.conflicted])
        #expect(outcomes.first?.entry.conflict?.fields == ["title"])
        #expect(post.title == "A's title")
      } else {
        #expect(outcomes.map(\.entry.status) == [.synced], "merged on the new version")
        #expect(post.title == "B2" && post.body == "A's body")
      }
    }
  }

  @Test func aDeletionOfAPostEditedElsewhereIsAConflict() async throws {
    try await withSandbox(EveryChangeTests.keeping()) { server in
      let (a, b) = (Device(server), Device(server))
      defer {
        a.remove()
        b.remove()
      }
      _ = try await a.posts.refresh()
      _ = try await b.posts.refresh()
      _ = try await a.posts.edit(.server(1), PostEdit(title: "Still wanted"))
      _ = try await b.posts.delete(.server(1), offline: true)
      #expect(try await b.posts.sync().map(\.entry.status) == [.conflicted])
      #expect(server.journal.count(method: "DELETE", path: "/posts/1") == 0)
    }
  }

  /// A kind whose policy settles conflicts at once: the server wins, or the device does.
  @Test(arguments: [ConflictResolution.theirs, .mine])
  func aPolicySettlesConflictsWithoutAsking(_ choice: ConflictResolution) async throws {
    try await withSandbox(EveryChangeTests.keeping()) { server in
      let (a, b) = try await Self.bothEdit(
        server, first: PostEdit(title: "From A"), second: PostEdit(title: "From B"))
      defer {
        a.remove()
        b.remove()
      }
      _ = try await a.posts.sync()
      let settled = Device(server, directory: b.directory, conflicts: .always(choice))
      let outcomes = try await settled.posts.sync()
      #expect(outcomes.map(\.entry.status) == [.synced])
      let expected = choice == .mine ? "From B" : "From A"
      #expect(try await Self.onServer(server).title == expected)
      #expect(try await settled.posts.local().first { $0.item.id == 1 }?.item.title == expected)
    }
  }

  /// Todos are checked the same way: one device's toggle and another's new text merge; two
  /// new texts are a conflict.
  @Test func todosMergeOrConflictAsPostsDo() async throws {
    try await withSandbox(EveryChangeTests.keeping()) { server in
      let (a, b, c) = (Device(server), Device(server), Device(server))
      defer {
        a.remove()
        b.remove()
        c.remove()
      }
      for device in [a, b, c] { _ = try await device.todos.refresh() }
      _ = try await a.todos.toggle(.server(1), offline: true)
      _ = try await b.todos.edit(.server(1), offline: true) { _ in TodoEdit(todo: "B's text") }
      _ = try await c.todos.edit(.server(1), offline: true) { _ in TodoEdit(todo: "C's text") }
      #expect(try await a.todos.sync().map(\.entry.status) == [.synced])
      #expect(try await b.todos.sync().map(\.entry.status) == [.synced], "merged")
      let outcomes = try await c.todos.sync()
      #expect(outcomes.map(\.entry.status) == [.conflicted])
      #expect(outcomes.first?.entry.conflict?.fields == ["todo"])
    }
  }

  /// The sandbox's `edited-elsewhere` fault: someone else edits the post between this
  /// device's read and its write — the write's `If-Match` meets the newer version (412), and
  /// the change is a conflict, the other edit kept.
  @Test func someoneElseEditingBetweenTheReadAndTheWriteIsAConflict() async throws {
    try await withSandbox(EveryChangeTests.keeping()) { server in
      server.faults.add(try .init(spec: "PUT /posts/1 edited-elsewhere"))
      let device = Device(server)
      defer { device.remove() }
      _ = try await device.posts.refresh()
      _ = try await device.posts.edit(.server(1), PostEdit(title: "Mine"), offline: true)
      let outcomes = try await device.posts.sync()
      #expect(outcomes.map(\.entry.status) == [.conflicted])
      #expect(try await Self.onServer(server).title.hasSuffix("(edited elsewhere)"))
      let theirs = try #require(outcomes.first?.entry.conflict?.theirs)
      #expect(String(decoding: theirs, as: UTF8.self).contains("(edited elsewhere)"))
    }
  }

  /// Two posts made offline, then the first edited online: the edit folds into its creation
  /// and that one change is sent — the second stays as it was, pending, untouched by the
  /// first's outcome.
  @Test func anEditOfOneOfTwoPendingPostsSendsThatPostAlone() async throws {
    try await withSandbox { server in
      let device = Device(server)
      defer { device.remove() }
      let a = try await device.posts.create(
        PostDraft(title: "A", body: "b", userId: 1), offline: true)
      let b = try await device.posts.create(
        PostDraft(title: "B", body: "b", userId: 1), offline: true)
      let edited = try await device.posts.edit(
        .local(try #require(a.localId)), PostEdit(title: "A2"))
      #expect(edited.status == .synced && edited.item.title == "A2" && edited.localId == a.localId)
      #expect(server.journal.count(method: "POST", path: "/posts/add") == 1)
      let body = String(decoding: server.journal.entries.last?.body ?? Data(), as: UTF8.self)
      #expect(body.contains("A2") && !body.contains("\"B\""))
      let second = try #require(try await device.posts.local().first { $0.localId == b.localId })
      #expect(second.status == .pending && second.message == nil && second.item.title == "B")
    }
  }

  /// The posts screen: a conflicted post is shown as such, and the user's choice settles it.
  @MainActor @Test func theScreenShowsAConflictAndTheUsersChoiceSettlesIt() async throws {
    try await withSandbox(EveryChangeTests.keeping()) { server in
      let (a, b) = try await Self.bothEdit(
        server, first: PostEdit(title: "From A"), second: PostEdit(title: "From B"))
      defer {
        a.remove()
        b.remove()
      }
      _ = try await a.posts.sync()
      let screen = LocalPostsViewModel(posts: b.posts)
      await screen.sync()
      let conflicted = try #require(screen.items.first { $0.item.id == 1 })
      #expect(conflicted.status == .conflicted && conflicted.item.title == "From B")
      // Another post, changed and sent without a conflict: nothing of it to resolve, and
      // resolving it leaves post 1's conflict alone.
      _ = try await b.posts.edit(.server(2), PostEdit(title: "Fine"))
      #expect(try await b.posts.resolve(.server(2), keeping: .mine) == false)
      #expect(try await b.posts.local().first { $0.item.id == 1 }?.status == .conflicted)
      await screen.resolve(conflicted, keeping: .mine)
      #expect(screen.items.first { $0.item.id == 1 }?.status == .synced)
      #expect(try await Self.onServer(server).title == "From B")
      #expect(try await b.posts.resolve(.server(1), keeping: .theirs) == false, "settled")
    }
  }
}
