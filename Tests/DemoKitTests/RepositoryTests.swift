import DemoKit
import Foundation
import Strata
import StrataSandbox
import StrataTesting
import Testing

@Suite("Repositories against the sandbox (real URLSession)")
struct RepositoryTests {
  @Test func loginThenMe() async throws {
    try await DemoHarness.with { harness, _ in
      let auth = try harness.container.resolve((any AuthRepository).self)
      let user = try await auth.login(username: "emilys", password: "emilyspass")
      #expect(user.username == "emilys" && user.firstName == "Emily")
      #expect(await auth.isSignedIn)
      let me = try await auth.me()
      #expect(me.id == 1 && me.email == "emily.johnson@x.dummyjson.com")
      #expect(
        harness.server.journal.entries.last?.header("Authorization")?.hasPrefix("Bearer eyJ")
          == true)
    }
  }

  @Test func wrongPasswordCarriesTheServersMessage() async throws {
    try await DemoHarness.with { harness, _ in
      let auth = try harness.container.resolve((any AuthRepository).self)
      let error = await #expect(throws: NetworkError.self) {
        try await auth.login(username: "emilys", password: "x")
      }
      #expect(error?.status == 400 && error?.serverMessage == "Invalid credentials")
      #expect(harness.server.journal.count(method: "POST", path: "/auth/login") == 1)
    }
  }

  @Test func expiredTokenIsRefreshedTransparently() async throws {
    // 1-minute tokens; the client's clock is not the server's, so it cannot know.
    try await DemoHarness.with(clientUsesClock: false) { harness, clock in
      let auth = try harness.container.resolve((any AuthRepository).self)
      _ = try await auth.login(username: "emilys", password: "emilyspass")
      clock.advance(120)  // the server now considers the token expired
      let me = try await auth.me()
      #expect(me.username == "emilys")
      #expect(harness.server.journal.count(method: "POST", path: "/auth/refresh") == 1)
      #expect(
        harness.server.journal.count(method: "GET", path: "/auth/me") == 2,
        "401, then 200 with the new token")
    }
  }

  @Test func theTokensOwnExpiryIsReadAndItIsRenewedBeforeUse() async throws {
    try await DemoHarness.with { harness, clock in  // TOKEN_LIFETIME = 1m
      let auth = try harness.container.resolve((any AuthRepository).self)
      let session = try harness.container.resolve(AuthSession.self)
      let signedInAt = clock.now
      _ = try await auth.login(username: "emilys", password: "emilyspass")
      let login = try #require(harness.server.journal.entries.last)
      #expect(String(decoding: login.body, as: UTF8.self).contains(#""expiresInMins":1"#))
      #expect(!String(decoding: login.body, as: UTF8.self).contains("expiresInSeconds"))
      #expect(await session.expiresAt == signedInAt.addingTimeInterval(60), "from the JWT's exp")

      clock.advance(29)  // 31 s left: more than the 30 s skew
      _ = try await auth.me()
      #expect(harness.server.journal.count(method: "POST", path: "/auth/refresh") == 0)
      clock.advance(2)  // 29 s left: refreshed before use
      _ = try await auth.me()
      #expect(harness.server.journal.count(method: "POST", path: "/auth/refresh") == 1)
      clock.advance(61)  // past the refreshed token's expiry too
      _ = try await auth.me()
      #expect(harness.server.journal.count(method: "POST", path: "/auth/refresh") == 2)
      #expect(
        harness.server.journal.count(method: "GET", path: "/auth/me") == 3,
        "no request was sent with an expired token (no 401, no replay)")
    }
  }

  @Test func oneMinuteTokensAMinuteLaterOneRefreshNo401() async throws {
    try await DemoHarness.with { harness, clock in  // TOKEN_LIFETIME = 1m
      let auth = try harness.container.resolve((any AuthRepository).self)
      _ = try await auth.login(username: "emilys", password: "emilyspass")
      clock.advance(61)
      #expect(try await auth.me().username == "emilys")
      #expect(harness.server.journal.count(method: "POST", path: "/auth/refresh") == 1)
      #expect(harness.server.journal.count(method: "GET", path: "/auth/me") == 1, "sent once")
    }
  }

  @Test func logoutTellsTheServerAndForgetsTheSessionWhateverItAnswers() async throws {
    try await DemoHarness.with { harness, _ in
      let auth = try harness.container.resolve((any AuthRepository).self)
      _ = try await auth.login(username: "emilys", password: "emilyspass")
      await auth.logout()
      #expect(harness.server.journal.count(method: "POST", path: "/auth/logout") == 1)
      #expect(await auth.isSignedIn == false)

      _ = try await auth.login(username: "emilys", password: "emilyspass")
      harness.server.faults.fail(500, method: "POST", path: "/auth/logout", count: 5)
      await auth.logout()
      #expect(
        harness.server.journal.count(method: "POST", path: "/auth/logout") == 2, "one attempt")
      #expect(await auth.isSignedIn == false, "signed out locally all the same")
      await auth.logout()  // signed out: nothing is sent
      #expect(harness.server.journal.count(method: "POST", path: "/auth/logout") == 2)
    }
  }

  @Test func usersPagesAndSearch() async throws {
    try await DemoHarness.with { harness, _ in
      let users = try harness.container.resolve((any UsersRepository).self)
      let second = try await users.page(limit: 10, skip: 10)
      #expect(second.items.map(\.id) == Array(11...20))
      #expect(second.total == 120 && second.hasMore)
      let found = try await users.search("emily", limit: 10, skip: 0)
      #expect(found.items.first?.username == "emilys")
    }
  }

  @Test func missingUserCarries404AndTheMessage() async throws {
    try await DemoHarness.with { harness, _ in
      let users = try harness.container.resolve((any UsersRepository).self)
      let error = await #expect(throws: NetworkError.self) { try await users.user(id: 999) }
      #expect(error?.status == 404)
      #expect(error?.serverMessage == "User with id '999' not found")
    }
  }

  /// An online create carries a key of its own: a 503 and a lost answer are retried under
  /// it, and the server makes the post once.
  @MainActor @Test func anOnlineCreateIsRetriedUnderItsKeyAndMadeOnce() async throws {
    try await DemoHarness.with { harness, _ in
      harness.server.faults.add(
        .init(method: "POST", path: "/posts/add", count: 1, action: .dropAfterHandling))
      harness.server.faults.fail(503, method: "POST", path: "/posts/add")
      let posts = PostsViewModel(repo: try harness.container.resolve((any PostsRepository).self))
      let created = try await posts.create(PostDraft(title: "Hello", body: "World", userId: 1))
      #expect(created.status == .synced && created.item.title == "Hello")
      let sent = harness.server.journal.entries.filter { $0.path == "/posts/add" }
      let keys = Set(sent.compactMap { $0.header("Idempotency-Key") })
      #expect(sent.count == 3 && keys.count == 1, "\(sent.map(\.path)) \(keys)")
      #expect(harness.server.changesDone(path: "/posts/add") == 1, "one post on the server")
    }
  }

  /// Online edits are keyed too: a rename, a delete and a toggle that meet a 503 are retried
  /// under one key each and succeed.
  @Test func onlineEditsAreRetriedUnderTheirKeys() async throws {
    try await DemoHarness.with { harness, _ in
      for (method, path) in [("PUT", "/posts/1"), ("DELETE", "/posts/2"), ("PUT", "/todos/3")] {
        harness.server.faults.fail(503, method: method, path: path)
      }
      let posts = try harness.container.resolve((any PostsRepository).self)
      #expect(
        try await posts.update(id: 1, PostEdit(title: "Renamed"), idempotencyKey: "k-rename").title
          == "Renamed")
      try await posts.delete(id: 2, idempotencyKey: "k-delete")
      let todos = try harness.container.resolve((any TodosRepository).self)
      #expect(
        try await todos.update(id: 3, TodoEdit(completed: true), idempotencyKey: "k-toggle")
          .completed)
      for path in ["/posts/1", "/posts/2", "/todos/3"] {
        let sent = harness.server.journal.entries.filter { $0.path == path }
        let keys = Set(sent.compactMap { $0.header("Idempotency-Key") })
        #expect(sent.count == 2 && keys.count == 1, "\(path): \(sent.count) sends, \(keys)")
        #expect(keys.first?.hasPrefix("k-") == true, "\(path): the key the caller gave")
      }
    }
  }

  @Test func usersGetSucceedsAfterTwo503s() async throws {
    try await DemoHarness.with { harness, _ in
      harness.server.faults.fail(503, method: "GET", path: "/users", count: 2)
      let page = try await harness.container.resolve((any UsersRepository).self).page(
        limit: 5, skip: 0)
      #expect(page.items.count == 5)
      #expect(harness.server.journal.count(method: "GET", path: "/users") == 3)
    }
  }

  @Test func postsAndTodos() async throws {
    try await DemoHarness.with { harness, _ in
      let posts = try harness.container.resolve((any PostsRepository).self)
      #expect(try await posts.list(limit: 3, skip: 0).items.count == 3)
      #expect(
        try await posts.update(id: 2, PostEdit(title: "New"), idempotencyKey: UUID().uuidString)
          .title
          == "New")
      try await posts.delete(id: 2, idempotencyKey: UUID().uuidString)
      let todos = try harness.container.resolve((any TodosRepository).self)
      let first = try #require(try await todos.list(limit: 1, skip: 0).items.first)
      #expect(
        try await todos.update(
          id: first.id, TodoEdit(completed: !first.completed), idempotencyKey: UUID().uuidString
        ).completed == !first.completed)
      let added = try await todos.create(
        TodoDraft(todo: "Water the plants", userId: 3), idempotencyKey: UUID().uuidString)
      #expect(added.todo == "Water the plants" && added.userId == 3 && !added.completed)
      #expect(
        try await todos.update(id: 2, TodoEdit(todo: "Call mum"), idempotencyKey: "k").todo
          == "Call mum")
      try await todos.delete(id: 2, idempotencyKey: UUID().uuidString)
    }
  }
}

@Suite("Users cache")
struct UsersCacheTests {
  @Test func repeatWithinTTLSendsNothingAfterTTLOrMutationRefetches() async throws {
    try await DemoHarness.with { harness, now in
      let network = try harness.container.resolve((any Networking).self)
      let users = APIUsersRepository(network: network, ttl: .seconds(30), now: { now.now })
      let journal = harness.server.journal

      _ = try await users.page(limit: 5, skip: 0)
      _ = try await users.page(limit: 5, skip: 0)
      _ = try await users.user(id: 3)
      _ = try await users.user(id: 3)
      #expect(journal.count(method: "GET", path: "/users") == 1)
      #expect(journal.count(method: "GET", path: "/users/3") == 1)

      now.advance(31)
      _ = try await users.page(limit: 5, skip: 0)
      #expect(journal.count(method: "GET", path: "/users") == 2)

      _ = try await users.rename(id: 3, firstName: "Renamed")
      _ = try await users.page(limit: 5, skip: 0)
      _ = try await users.user(id: 3)
      #expect(journal.count(method: "GET", path: "/users") == 3)
      #expect(journal.count(method: "GET", path: "/users/3") == 2)
    }
  }
}

@Suite("DemoContainer")
struct DemoContainerTests {
  @Test func validatePasses() async throws {
    try await DemoHarness.with { harness, _ in
      try harness.container.validate()
    }
  }

  @Test func validateReportsABadAPIValue() throws {
    let config = try Config(parsing: "API = not-a-url\nTOKEN_STORE = memory", name: "bad.xcconfig")
    let error = try #require(throws: DependencyError.self) {
      try DemoContainer.make(config: config).validate()
    }
    #expect(error.description.contains("bad.xcconfig:1:1: API: expected a URL"))
  }

  @Test func swappingNetworkingInAChildReachesEveryRepository() async throws {
    try await DemoHarness.with { harness, _ in
      let mock = RecordingNetworking.failing(with: .server(status: 599))
      let child = DependencyContainer(parent: harness.container)
      try child.override((any Networking).self, scope: .singleton) { _ in mock }
      _ = try? await child.resolve((any UsersRepository).self).page(limit: 1, skip: 0)
      _ = try? await child.resolve((any PostsRepository).self).list(limit: 1, skip: 0)
      _ = try? await child.resolve((any TodosRepository).self).list(limit: 1, skip: 0)
      _ = try? await child.resolve((any AuthRepository).self).me()
      #expect(
        mock.requests.map(\.line) == ["GET users", "GET posts", "GET todos", "GET auth/me"])
      #expect(mock.requests.map(\.requiresAuth) == [false, false, false, true])
      #expect(harness.server.journal.count() == 0)
      _ = try await harness.container.resolve((any UsersRepository).self).page(limit: 1, skip: 0)
      #expect(harness.server.journal.count() == 1, "the parent still uses the real network")
    }
  }
}
