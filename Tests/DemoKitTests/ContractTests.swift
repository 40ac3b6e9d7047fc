import DemoKit
import Foundation
import Strata
import StrataSandbox
import Testing

/// What DemoKit relies on from a DummyJSON API, checked through DemoKit's own repositories.
/// By default against the embedded sandbox; `STRATA_CONTRACT_API=https://dummyjson.com make
/// contract` runs the same checks against any DummyJSON deployment (never in CI: it needs
/// the network).
@Suite("Contract: DemoKit against a DummyJSON API")
struct ContractTests {
  /// The API under test and how to stop it (a sandbox, unless the variable names one).
  struct Target {
    let container: DependencyContainer
    let stop: @Sendable () async -> Void

    static func start() throws -> Target {
      let external = ProcessInfo.processInfo.environment["STRATA_CONTRACT_API"]
      let server = external == nil ? SandboxServer() : nil
      try server?.start()
      let api = external ?? server?.baseURL.absoluteString ?? ""
      let config = try Config(
        parsing: """
          API = \(api)
          TOKEN_STORE = memory
          TOKEN_LIFETIME = 1m
          RETRY_BASE_DELAY = 200ms
          DEADLINE = 300s
          IDLE_TIMEOUT = 300s
          """, name: "contract.xcconfig")
      return Target(container: DemoContainer.make(config: config)) { await server?.stop() }
    }

    /// Runs `body` against a started target and stops it however `body` ends.
    static func with(
      isolation: isolated (any Actor)? = #isolation, _ body: (Target) async throws -> Void
    ) async throws {
      let target = try start()
      do {
        try await body(target)
      } catch {
        await target.stop()
        throw error
      }
      await target.stop()
    }
  }

  /// The API tags its answers (Express: a weak `ETag` on every JSON body) and answers a
  /// matching `If-None-Match` with `304 Not Modified`: a second read costs no body.
  @Test func aSecondReadIsRevalidatedNotDownloadedAgain() async throws {
    struct Someone: Decodable, Sendable { let id: Int }
    try await Target.with { target in
      let network = try target.container.resolve((any Networking).self)
      // Not user 1: the record holds emilys' password, which a sign-in elsewhere in this
      // process makes a known secret, and an answer holding one is never cached.
      let first = try await network.send(Request<Someone>(path: "users/2"))
      #expect(first.source == .network && first.value.id == 2)
      let second = try await network.send(Request<Someone>(path: "users/2"))
      switch second.source {
      case .revalidated, .cache: #expect(second.value.id == 2)
      default: Issue.record("the second read was downloaded again: \(second.source)")
      }
    }
  }

  /// A user's picture (`image`, DummyJSON's `/icon/<username>/128`) is a PNG the API says is
  /// good for a year: the second read is the HTTP cache's, with no request.
  @Test func aUsersPictureIsAPNGTheCacheKeeps() async throws {
    try await Target.with { target in
      let user = try await target.container.resolve((any UsersRepository).self).user(id: 1)
      #expect(user.image?.hasSuffix("/icon/emilys/128") == true, "\(user.image ?? "no image")")
      let avatars = try target.container.resolve((any AvatarRepository).self)
      let first = try await avatars.avatar(of: user, progress: nil)
      #expect(first.value.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
      guard case .cache = try await avatars.avatar(of: user, progress: nil).source else {
        Issue.record("the second read was not the cache's")
        return
      }
    }
  }

  @Test func aPostsCommentsBelongToIt() async throws {
    try await Target.with { target in
      let comments = try target.container.resolve((any CommentsRepository).self)
      let page = try await comments.comments(postId: 1)
      #expect(page.items.allSatisfy { $0.postId == 1 && !$0.user.username.isEmpty })
      #expect(page.items.count == page.total)
      let all = try await comments.list(limit: 10, skip: 0)
      #expect(all.items.count == 10 && all.total >= 300)
    }
  }

  @Test func everySeededUserPostAndTodoDecodes() async throws {
    try await Target.with { target in
      let users = try await target.container.resolve((any UsersRepository).self).page(
        limit: 0, skip: 0)
      #expect(users.items.count == users.total && users.total >= 100)
      #expect(users.items.allSatisfy { $0.address?.city.isEmpty == false && $0.company != nil })
      let posts = try await target.container.resolve((any PostsRepository).self).list(
        limit: 0, skip: 0)
      #expect(posts.items.count == posts.total && posts.total >= 100)
      let todos = try await target.container.resolve((any TodosRepository).self).list(
        limit: 0, skip: 0)
      #expect(todos.items.count == todos.total && todos.total >= 100)
    }
  }

  @Test func signInReadTheTokensExpiryUseItAndSignOut() async throws {
    try await Target.with { target in
      let auth = try target.container.resolve((any AuthRepository).self)
      let session = try target.container.resolve(AuthSession.self)
      let before = Date()
      let user = try await auth.login(username: "EMILYS", password: "emilyspass")
      #expect(user.username == "emilys", "usernames match case-insensitively")
      let expiresAt = try #require(await session.expiresAt)
      // TOKEN_LIFETIME = 1m: the JWT's exp is within a minute (plus clock skew) of the login.
      #expect(abs(expiresAt.timeIntervalSince(before) - 60) < 30, "\(expiresAt) vs \(before)")
      #expect(try await auth.me().username == "emilys")
      await auth.logout()
      #expect(await auth.isSignedIn == false)
    }
  }

  @Test func errorAnswersCarryStatusAndMessage() async throws {
    try await Target.with { target in
      let users = try target.container.resolve((any UsersRepository).self)
      let missing = await #expect(throws: NetworkError.self) { try await users.user(id: 99_999) }
      #expect(missing?.status == 404 && missing?.serverMessage == "User with id '99999' not found")
      let auth = try target.container.resolve((any AuthRepository).self)
      let wrong = await #expect(throws: NetworkError.self) {
        try await auth.login(username: "emilys", password: "not-the-password")
      }
      #expect(wrong?.status == 400 && wrong?.serverMessage == "Invalid credentials")
      let created = try await target.container.resolve((any PostsRepository).self).create(
        PostDraft(title: "Contract", body: "Checked", userId: 5),
        idempotencyKey: UUID().uuidString)
      #expect(created.title == "Contract" && created.userId == 5)
    }
  }

  /// Every write DemoKit sends, answered as it reads them: a post created (numbered after the
  /// last, and not kept: an edit of it is the service's 404), edited and deleted; a todo added,
  /// edited, marked done and deleted; a deletion of what is not there, the 404 with its message.
  @Test func everyWriteRouteAnswersAsDemoKitReadsIt() async throws {
    try await Target.with { target in
      let posts = try target.container.resolve((any PostsRepository).self)
      let total = try await posts.list(limit: 1, skip: 0).total
      let made = try await posts.create(
        PostDraft(title: "Contract", body: "Checked", userId: 5), idempotencyKey: UUID().uuidString)
      #expect(made.id == total + 1)
      let edited = try await posts.update(
        id: 1, PostEdit(title: "Renamed", body: "Rewritten"), idempotencyKey: UUID().uuidString)
      #expect(edited.id == 1 && edited.title == "Renamed" && edited.body == "Rewritten")
      try await posts.delete(id: 2, idempotencyKey: UUID().uuidString)
      let notKept = await #expect(throws: NetworkError.self) {
        try await posts.update(id: made.id, PostEdit(title: "x"), idempotencyKey: "k")
      }
      #expect(
        notKept?.status == 404 && notKept?.serverMessage == "Post with id '\(made.id)' not found")

      let todos = try target.container.resolve((any TodosRepository).self)
      let added = try await todos.create(
        TodoDraft(todo: "Contract", userId: 5), idempotencyKey: UUID().uuidString)
      #expect(added.todo == "Contract" && added.userId == 5 && !added.completed)
      let done = try await todos.update(
        id: 1, TodoEdit(todo: "Renamed", completed: true), idempotencyKey: UUID().uuidString)
      #expect(done.id == 1 && done.todo == "Renamed" && done.completed)
      try await todos.delete(id: 3, idempotencyKey: UUID().uuidString)
      let missing = await #expect(throws: NetworkError.self) {
        try await todos.delete(id: 99_999, idempotencyKey: UUID().uuidString)
      }
      #expect(missing?.status == 404 && missing?.serverMessage == "Todo with id '99999' not found")
    }
  }

  /// The API answers every creation with one id (DummyJSON: the one after the seed, whatever
  /// was created before): two posts made offline and synced stay two posts on the device,
  /// each under its own local id, both carrying that id. An edit of each finds its own, and one
  /// by the shared id is refused, naming both.
  @Test func twoPostsMadeOfflineStayTwoWhateverIdTheServerGives() async throws {
    try await Target.with { target in
      let directory = NSTemporaryDirectory() + "strata-contract-\(UUID().uuidString)"
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let store = LocalStore<Post>(path: directory + "/posts")
      let posts = OfflinePosts(
        stores: { _ in store }, owner: { .device },
        repository: try target.container.resolve((any PostsRepository).self))
      var locals: [String] = []
      for title in ["First", "Second"] {
        let made = try await posts.create(
          PostDraft(title: title, body: "Made offline", userId: 5), offline: true)
        locals.append(try #require(made.localId))
      }
      #expect(try await posts.sync().map(\.entry.status) == [.synced, .synced])
      let kept = try await posts.local()
      #expect(kept.count == 2, "both stay")
      #expect(Set(kept.compactMap(\.localId)) == Set(locals))
      let ids = Set(kept.map(\.item.id))
      #expect(ids.count == 1 && ids.first != 0, "one id from the server for both: \(ids)")
      let shared = try #require(ids.first)
      let refused = await #expect(throws: SharedServerID.self) {
        try await posts.edit(.server(shared), PostEdit(title: "Which?"), offline: true)
      }
      #expect(Set(refused?.localIds ?? []) == Set(locals))
    }
  }
}
