import DemoKit
import Foundation
import Strata
import StrataSandbox
import StrataTesting
import Testing

/// The demo app, signed in, reading and writing against a server that varies every answer on
/// `Authorization` (as a CDN in front of an API may): only the session file holds a secret.
@Suite("Accounts in the demo app: secrets and kept values")
struct AccountSecretsTests {
  /// Signed-in reads kept by the users repository are the account's own: after another
  /// account signs in, the same read asks the server again.
  @Test func aSignedInReadKeptForOneAccountIsNotTheNextOnes() async throws {
    let session = AuthSession(
      origin: Origin("https://api.example")!,
      store: InMemoryTokenStore(
        Credentials(
          accessToken: "tok-a", refreshToken: "r", origin: Origin("https://api.example"),
          owner: .account("user-1"))))
    let transport = MockTransport { request, _ in
      let name = request.value(forHTTPHeaderField: "Authorization") == "Bearer tok-a" ? "A" : "B"
      return try MockTransport.response(
        request, status: 200, body: #"{"id":2,"firstName":"\#(name)","lastName":"x"}"#)
    }
    // One fixed clock for the repository and its HTTP cache: no verdict on elapsed time.
    let now = { @Sendable in Date(timeIntervalSince1970: 1_800_000_000) }
    var options = NetworkOptions(
      baseURL: URL(string: "https://api.example")!, deadline: .seconds(300))
    options.cache = HTTPCache(now: now)
    let network = NetworkService(options: options, transport: transport, authenticator: session)
    let users = APIUsersRepository(network: network, signedIn: true, now: now)
    #expect(try await users.user(id: 2).firstName == "A")
    #expect(try await users.user(id: 2).firstName == "A" && transport.requestCount == 1)
    try await session.signIn(
      Credentials(accessToken: "tok-b", refreshToken: "r", owner: .account("user-2")))
    #expect(try await users.user(id: 2).firstName == "B", "not the previous account's")
    #expect(transport.requestCount == 2)
  }

  @Test func aSignedInSessionLeavesNoSecretOutsideTheSessionFile() async throws {
    let root = NSTemporaryDirectory() + "strata-secrets-\(UUID().uuidString)"
    // The HTTP cache goes where the process's XDG_CACHE_HOME says: an app name of this test's
    // own keeps it apart, and it is removed afterwards.
    let app = "strata-secrets-\(UUID().uuidString)"
    let cacheDirectory = AppDirectories(app: app).cache
    defer {
      try? FileManager.default.removeItem(atPath: root)
      try? FileManager.default.removeItem(atPath: cacheDirectory)
    }
    let server = SandboxServer()
    try server.start()
    defer { server.stopAndWait() }
    server.faults.add(
      .init(
        method: "GET", path: "/*", count: 1_000,
        action: .header(name: "Vary", value: "Authorization, Cookie")))
    let config = try Config(
      parsing: """
        API = \(server.baseURL.absoluteString)
        APP_NAME = \(app)
        TOKEN_STORE = file
        HTTP_CACHE = disk
        STORE_DIRECTORY = \(root)/store
        USERS_REQUIRE_SIGN_IN = YES
        """, name: "test.xcconfig")
    let container = DemoContainer.make(
      config: config, environment: ["HOME": root, "XDG_CONFIG_HOME": root + "/config"])
    let password = SandboxServer.demoAccount.password
    let auth = try container.resolve((any AuthRepository).self)
    _ = try await auth.login(username: SandboxServer.demoAccount.username, password: password)
    _ = try await auth.me()
    let users = try container.resolve((any UsersRepository).self)
    _ = try await users.user(id: 2)
    _ = try await users.user(id: 2)
    _ = try await users.page(limit: 5, skip: 0)
    let posts = try container.resolve(OfflinePosts.self)
    _ = try await posts.refresh(limit: 5)
    _ = try await posts.create(PostDraft(title: "Mine", body: "kept", userId: 1), offline: true)
    _ = try await posts.sync()
    let todos = try container.resolve(OfflineTodos.self)
    _ = try await todos.refresh(limit: 5)

    let origin = try #require(Origin(server.baseURL))
    let session = try #require(
      FileManager.default.contents(
        atPath: root + "/config/\(app)/sessions/" + AppDirectories.component(for: origin) + ".json")
    )
    let credentials = try JSONDecoder().decode(Credentials.self, from: session)
    let files = Self.everyFile(under: cacheDirectory) + Self.everyFile(under: root + "/store")
    #expect(files.contains { $0.name.hasSuffix(".entry") }, "the cache kept answers")
    #expect(
      files.contains { String(decoding: $0.bytes, as: UTF8.self).contains("hmac-sha256:") },
      "an answer varied on Authorization was kept, under a digest")
    #expect(files.contains { $0.name.contains("accounts/user-1/posts") }, "the account's store")
    for secret in [credentials.accessToken, credentials.refreshToken, password] {
      let holding = files.filter { $0.bytes.range(of: Data(secret.utf8)) != nil }.map(\.name)
      #expect(holding.isEmpty, "a secret in \(holding)")
    }
  }

  private static func everyFile(under root: String) -> [(name: String, bytes: Data)] {
    let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
    return names.compactMap { name in
      FileManager.default.contents(atPath: root + "/" + name).map { (name, $0) }
    }
  }
}
