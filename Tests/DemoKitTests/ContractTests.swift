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
          """, name: "contract.xcconfig")
      return Target(container: DemoContainer.make(config: config)) { await server?.stop() }
    }
  }

  @Test func everySeededUserPostAndTodoDecodes() async throws {
    let target = try Target.start()
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
    await target.stop()
  }

  @Test func signInReadTheTokensExpiryUseItAndSignOut() async throws {
    let target = try Target.start()
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
    await target.stop()
  }

  @Test func errorAnswersCarryStatusAndMessage() async throws {
    let target = try Target.start()
    let users = try target.container.resolve((any UsersRepository).self)
    let missing = await #expect(throws: NetworkError.self) { try await users.user(id: 99_999) }
    #expect(missing?.status == 404 && missing?.serverMessage == "User with id '99999' not found")
    let auth = try target.container.resolve((any AuthRepository).self)
    let wrong = await #expect(throws: NetworkError.self) {
      try await auth.login(username: "emilys", password: "not-the-password")
    }
    #expect(wrong?.status == 400 && wrong?.serverMessage == "Invalid credentials")
    let created = try await target.container.resolve((any PostsRepository).self).create(
      title: "Contract", body: "Checked", userId: 5)
    #expect(created.title == "Contract" && created.userId == 5)
    await target.stop()
  }
}
