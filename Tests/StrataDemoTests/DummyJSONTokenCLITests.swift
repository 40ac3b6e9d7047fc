import Foundation
import Strata
import StrataSandbox
import Testing

/// The built `strata-demo` against a sandbox that answers as the real DummyJSON does: JWTs
/// the server cannot verify, lifetimes it refuses, a logout route.
@Suite("strata-demo against DummyJSON's token answers")
struct DummyJSONTokenCLITests {
  /// A running sandbox and a CLI signed in to it whose session file then had its access token
  /// (and, if asked, its refresh token) corrupted; the file stays 0600.
  static func signedInWithCorruptTokens(refreshToken corruptsRefresh: Bool) async throws -> (
    SandboxServer, CLIRunner
  ) {
    let server = SandboxServer()
    try server.start()
    let cli = try CLIRunner()
    let stored = try await SecurityCLITests.login(cli, server)
    let tampered = Credentials(
      accessToken: corrupt(stored.accessToken),
      refreshToken: corruptsRefresh ? corrupt(stored.refreshToken) : stored.refreshToken,
      expiresAt: stored.expiresAt, origin: stored.origin)
    let path = cli.credentialsPath(for: server.baseURL)
    try JSONEncoder().encode(tampered).write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    return (server, cli)
  }

  /// The token with the last character of its signature changed: well formed, badly signed.
  static func corrupt(_ token: String) -> String {
    String(token.dropLast()) + (token.hasSuffix("A") ? "B" : "A")
  }

  @Test func aSessionTheServerCannotVerifyEndsWithExit77AndNoRetries() async throws {
    let (server, cli) = try await Self.signedInWithCorruptTokens(refreshToken: true)
    defer { server.stopAndWait() }
    let api = ["--api", server.baseURL.absoluteString]
    let me = try await cli.run(api + ["me"])
    #expect(me.status == 77, "\(me.stderr)")
    #expect(me.stderr.contains("your session is no longer valid: run 'strata-demo login'"))
    // 500 "invalid signature" → one refresh (403 "Invalid refresh token") → signed out.
    #expect(server.journal.count(method: "GET", path: "/auth/me") == 1, "never retried")
    #expect(server.journal.count(method: "POST", path: "/auth/refresh") == 1)
    #expect(!FileManager.default.fileExists(atPath: cli.credentialsPath(for: server.baseURL)))

    let again = try await cli.run(api + ["me"])
    #expect(again.status == 77 && again.stderr.contains("not signed in to"), "\(again.stderr)")
    #expect(server.journal.count(method: "GET", path: "/auth/me") == 1, "nothing sent")
  }

  @Test func aCorruptAccessTokenWithAGoodRefreshTokenRecoversInOneRenewal() async throws {
    let (server, cli) = try await Self.signedInWithCorruptTokens(refreshToken: false)
    defer { server.stopAndWait() }
    let me = try await cli.run(["--api", server.baseURL.absoluteString, "me"])
    #expect(me.status == 0, "\(me.stderr)")
    #expect(me.stdout.contains("emilys"))
    #expect(server.journal.count(method: "POST", path: "/auth/refresh") == 1)
    #expect(server.journal.count(method: "GET", path: "/auth/me") == 2, "rejected once, replayed")
  }

  @Test(arguments: ["119s", "30s", "744h", "0m", "90s", "1.5m", "43201m"])
  func aTokenLifetimeDummyJSONWouldRefuseIsAConfigurationError(_ value: String) async throws {
    let cli = try CLIRunner()
    let result = try await cli.run([
      "--api", "http://127.0.0.1:1", "--set", "TOKEN_LIFETIME=\(value)", "login", "--username",
      "emilys", "--password", "x",
    ])
    #expect(result.status == 78, "\(value): \(result.stderr)")
    #expect(result.stderr.contains("TOKEN_LIFETIME"), "\(result.stderr)")
  }

  @Test(arguments: ["1m", "2h", "43200m", "30d"])
  func wholeMinutesUpTo30DaysSignIn(_ value: String) async throws {
    let server = SandboxServer()
    try server.start()
    defer { server.stopAndWait() }
    let cli = try CLIRunner()
    let result = try await cli.run([
      "--api", server.baseURL.absoluteString, "--set", "TOKEN_LIFETIME=\(value)", "login",
      "--username", "emilys", "--password", SecurityCLITests.password,
    ])
    #expect(result.status == 0, "\(value): \(result.stderr)")
  }

  @Test func logoutTellsTheServer() async throws {
    let server = SandboxServer()
    try server.start()
    defer { server.stopAndWait() }
    let cli = try CLIRunner()
    _ = try await SecurityCLITests.login(cli, server)
    let logout = try await cli.run(["--api", server.baseURL.absoluteString, "logout"])
    #expect(logout.status == 0 && logout.stdout.contains("signed out"))
    let call = try #require(server.journal.entries.last)
    #expect(call.method == "POST" && call.path == "/auth/logout")
    #expect(call.header("Authorization")?.hasPrefix("Bearer eyJ") == true)
  }
}

@Suite("strata-demo --http-log")
struct HTTPLogCLITests {
  @Test func everyAttemptIsOneJSONLineWithNoSecret() async throws {
    let server = SandboxServer()
    try server.start()
    defer { server.stopAndWait() }
    server.faults.fail(503, method: "GET", path: "/users")
    let cli = try CLIRunner()
    let path = cli.home + "/http.jsonl"
    let api = ["--api", server.baseURL.absoluteString, "--set", "RETRY_BASE_DELAY=10ms"]
    _ = try await SecurityCLITests.login(cli, server)
    let result = try await cli.run(api + ["--http-log", path, "users", "--limit", "2"])
    #expect(result.status == 0, "\(result.stderr)")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let records = try text.split(separator: "\n").map {
      try JSONDecoder().decode(RequestRecord.self, from: Data($0.utf8))
    }
    #expect(records.map(\.status) == [503, 200])
    #expect(records.map(\.attempt) == [1, 2] && records.last?.retriedBecause == "503")
    #expect(records.allSatisfy { $0.method == "GET" && $0.url.contains("/users?limit=2") })
    #expect(!text.contains("eyJhbGciOiJIUzI1NiIs") && !text.contains(SecurityCLITests.password))
    let mode =
      (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?
      .intValue
    #expect(mode == 0o600)

    let sent = server.journal.count()
    let unwritable = try await cli.run(
      api + ["--http-log", "/nonexistent/dir/http.jsonl", "users"])
    #expect(unwritable.status == 73 && unwritable.stderr.contains("cannot write the HTTP log"))
    #expect(server.journal.count() == sent, "refused before anything was sent")
  }
}
