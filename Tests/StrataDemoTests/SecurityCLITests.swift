import Foundation
import Strata
import StrataConcurrency
import StrataSandbox
import Testing

/// The built `strata-demo` against hostile servers: nothing leaks, nothing is sent where it
/// does not belong, and processes sharing a session never corrupt it.
@Suite("strata-demo against hostile servers")
struct SecurityCLITests {
  static let password = SandboxServer.demoAccount.password

  static func login(_ cli: CLIRunner, _ server: SandboxServer) async throws -> Credentials {
    let login = try await cli.run([
      "--api", server.baseURL.absoluteString, "--log-level", "trace", "login", "--username",
      "emilys", "--password", password,
    ])
    #expect(login.status == 0, "\(login.stderr)")
    #expect(!login.all.contains(password), "the password leaked at login")
    let data = try Data(contentsOf: URL(fileURLWithPath: cli.credentialsPath(for: server.baseURL)))
    return try JSONDecoder().decode(Credentials.self, from: data)
  }

  @Test func aConfigFileInTheWorkingDirectoryNeverRedirectsTheSession() async throws {
    let real = SandboxServer()
    let hostile = SandboxServer()
    try real.start()
    try hostile.start()
    defer {
      real.stopAndWait()
      hostile.stopAndWait()
    }
    hostile.faults.fail(401, path: "/*", count: 1_000)
    let cli = try CLIRunner()
    _ = try await Self.login(cli, real)

    let folder = cli.home + "/project"
    try FileManager.default.createDirectory(
      atPath: folder + "/Config", withIntermediateDirectories: true)
    try "API = \(hostile.baseURL.absoluteString)\nLOG_LEVEL = critical\n".write(
      toFile: folder + "/Config/Debug.xcconfig", atomically: true, encoding: .utf8)
    let here = URL(fileURLWithPath: folder)

    let implicit = try await cli.run(["me"], in: here)
    #expect(implicit.status == 77, "\(implicit.all)")
    #expect(implicit.stderr.contains("not signed in to the embedded sandbox"))

    let explicit = try await cli.run(["--api", hostile.baseURL.absoluteString, "me"], in: here)
    #expect(explicit.status == 77)
    #expect(explicit.stderr.contains("not signed in to \(hostile.baseURL.absoluteString)"))

    let named = try await cli.run(["--config", "Config/Debug.xcconfig", "me"], in: here)
    #expect(named.status == 77, "a file passed explicitly is read, and still gets no token")

    #expect(hostile.journal.count() == 0, "nothing was sent to the other server")
    let again = try await cli.run(["--api", real.baseURL.absoluteString, "me"], in: here)
    #expect(again.status == 0, "the real session was not touched: \(again.stderr)")
  }

  @Test func noSecretReachesAnyOutputAtAnyLogLevelEvenWhenTheServerEchoesIt() async throws {
    let server = SandboxServer()
    try server.start()
    defer { server.stopAndWait() }
    let cli = try CLIRunner()
    let credentials = try await Self.login(cli, server)
    let secrets = [credentials.accessToken, credentials.refreshToken, Self.password]
    let api = ["--api", server.baseURL.absoluteString, "--set", "RETRY_BASE_DELAY=10ms"]

    for level in LogLevel.allCases {
      server.faults.add(
        .init(method: "GET", path: "/auth/me", count: 4, action: .echo(status: 500)))
      let result = try await cli.run(api + ["--log-level", level.description, "me"])
      #expect(result.status == 1, "\(level): \(result.stderr)")
      #expect(result.stderr.contains("HTTP 500"))
      for secret in secrets { #expect(!result.all.contains(secret), "\(level) leaked a secret") }
    }
    let echoed = try #require(server.journal.entries.last { $0.path == "/auth/me" })
    #expect(echoed.header("Authorization") == "Bearer \(credentials.accessToken)", "it was echoed")

    // A refresh answered by an echoing 500 keeps the session; an echoing 400 ends it.
    server.faults.fail(401, method: "GET", path: "/auth/me")
    server.faults.add(
      .init(method: "POST", path: "/auth/refresh", count: 1, action: .echo(status: 500)))
    let kept = try await cli.run(api + ["--log-level", "trace", "me"])
    #expect(kept.status == 1, "\(kept.stderr)")
    #expect(kept.stderr.contains("could not refresh the session (it is kept; try again)"))
    #expect(FileManager.default.fileExists(atPath: cli.credentialsPath(for: server.baseURL)))

    server.faults.fail(401, method: "GET", path: "/auth/me")
    server.faults.add(
      .init(method: "POST", path: "/auth/refresh", count: 1, action: .echo(status: 400)))
    let ended = try await cli.run(api + ["--log-level", "trace", "me"])
    #expect(ended.status == 77, "\(ended.stderr)")
    #expect(!FileManager.default.fileExists(atPath: cli.credentialsPath(for: server.baseURL)))
    for result in [kept, ended] {
      for secret in secrets { #expect(!result.all.contains(secret), "a secret leaked") }
    }
  }

  /// `/auth/me` or `/auth/refresh` redirected to another origin that answers 401: that is an
  /// error (exit 1), not the end of the session — no credential went there.
  @Test(arguments: [302, 307, 308])
  func aRejectionFromWhereTheAPIRedirectedKeepsTheSession(_ status: Int) async throws {
    let server = SandboxServer()
    let other = SandboxServer()
    try server.start()
    try other.start()
    defer {
      server.stopAndWait()
      other.stopAndWait()
    }
    other.faults.fail(401, path: "/*", count: 100)
    let cli = try CLIRunner()
    let credentials = try await Self.login(cli, server)
    let session = cli.credentialsPath(for: server.baseURL)
    let api = ["--api", server.baseURL.absoluteString]
    let away = ["Location": "\(other.baseURL.absoluteString)/auth/me"]

    // Twice: were the foreign 401 taken for a rejection, the refreshed token's replay would be
    // redirected too and the session ended.
    server.faults.fail(status, method: "GET", path: "/auth/me", count: 2, headers: away)
    let me = try await cli.run(api + ["me"])
    server.faults.reset()
    #expect(me.status == 1, "\(me.stderr)")
    #expect(me.stderr.contains("where the API redirected the request"), "\(me.stderr)")
    #expect(FileManager.default.fileExists(atPath: session), "the session is kept")

    server.faults.fail(401, method: "GET", path: "/auth/me")
    server.faults.fail(status, method: "POST", path: "/auth/refresh", headers: away)
    let refresh = try await cli.run(api + ["me"])
    #expect(refresh.status == 1, "\(refresh.stderr)")
    #expect(refresh.stderr.contains("it is kept"), "\(refresh.stderr)")
    #expect(FileManager.default.fileExists(atPath: session), "the session is kept")
    for entry in other.journal.entries {
      #expect(entry.header("Authorization") == nil)
      #expect(!String(decoding: entry.body, as: UTF8.self).contains(credentials.refreshToken))
    }
    let again = try await cli.run(api + ["me"])
    #expect(again.status == 0, "the kept session still works: \(again.stderr)")
  }

  /// Personal data, secret names and credentials inside free text, sent by the server in a
  /// user's body: a trace run prints the body, and none of the values.
  @Test func personalAndSecretDataFromTheServerIsMaskedAtTrace() async throws {
    let server = SandboxServer()
    try server.start()
    defer { server.stopAndWait() }
    let secrets = [
      "4111111111111111", "DE89370400440532013000", "021000021", "1990-02-17", "482913",
      "771204", "Srv=db;Pwd=CONNPW", "postgres://app:DSNPW@db/x", "REFRESHTOKENVALUE",
      "URLPASSWORD", "QUERYTOKEN", "HEADERTOKEN",
    ]
    let body = """
      {"id":1,"firstName":"Emily","lastName":"Johnson","age":28,"email":"e@x.io",
      "username":"emilys","creditCard":"\(secrets[0])","accountNumber":"\(secrets[1])",
      "routingNumber":"\(secrets[2])","dob":"\(secrets[3])","mfaCode":"\(secrets[4])",
      "totp":"\(secrets[5])","connectionString":"\(secrets[6])","dsn":"\(secrets[7])",
      "refresh":"\(secrets[8])",
      "note":"see https://u:\(secrets[9])@h.example/x?token=\(secrets[10]) and Authorization: Bearer \(secrets[11])"}
      """
    server.faults.add(
      .init(
        method: "GET", path: "/users/1",
        action: .respond(status: 200, headers: ["Content-Type": "application/json"], body: body)))
    let cli = try CLIRunner()
    let result = try await cli.run([
      "--api", server.baseURL.absoluteString, "--log-level", "trace", "user", "1",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("creditCard"), "the trace shows the body: \(result.stderr)")
    for secret in secrets { #expect(!result.all.contains(secret), "\(secret) leaked") }
  }

  @Test func eightProcessesOverAnExpiredTokenRefreshOnceAgainstARotatingServer() async throws {
    let clock = Lock(Date())
    let server = SandboxServer(
      configuration: .init(rotatesRefreshTokens: true, now: { clock.withLock { $0 } }))
    try server.start()
    defer { server.stopAndWait() }
    let cli = try CLIRunner()
    let before = try await Self.login(cli, server)
    clock.withLock { $0 += 2 * 3600 }  // every access token is now expired for the server
    // A slow refresh, so every process meets the 401 while the first refresh is in flight.
    server.faults.add(
      .init(method: "POST", path: "/auth/refresh", count: 8, action: .delay(.milliseconds(700))))

    let results = try await withThrowingTaskGroup(of: CLIRunner.Result.self) { group in
      for _ in 0..<8 {
        group.addTask { try await cli.run(["--api", server.baseURL.absoluteString, "me"]) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    for result in results { #expect(result.status == 0, "\(result.stderr)") }
    #expect(server.journal.count(method: "POST", path: "/auth/refresh") == 1)
    let path = cli.credentialsPath(for: server.baseURL)
    let mode =
      (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?
      .intValue
    #expect(mode == 0o600)
    let after = try JSONDecoder().decode(
      Credentials.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(after.accessToken != before.accessToken && after.refreshToken != before.refreshToken)
    #expect(after.origin == Origin(server.baseURL))
  }

  @Test(arguments: ["1MiB", "10MiB"])
  func anEndlessBodyStopsAtTheLimitWithBoundedMemory(_ limit: String) async throws {
    let server = SandboxServer()
    try server.start()
    defer { server.stopAndWait() }
    server.faults.add(.init(method: "GET", path: "/users/1", count: 4, action: .endlessBody))
    // A deadline far beyond any load: "too large" (not "timed out") proves the limit cut it.
    let result = try await CLIRunner().run([
      "--api", server.baseURL.absoluteString, "--set", "MAX_RESPONSE_SIZE=\(limit)",
      "--set", "DEADLINE=300s", "user", "1",
    ])
    #expect(result.status == 1, "\(result.stderr)")
    let bytes = limit == "1MiB" ? 1 << 20 : 10 << 20
    #expect(result.stderr.contains("larger than the \(bytes)-byte limit"), "\(result.stderr)")
    #if os(Linux)  // the child's peak is read from /proc; unmeasured elsewhere
      #expect(result.peakResidentBytes > 0 && result.peakResidentBytes < 100 << 20)
    #endif
    #expect(server.journal.count(path: "/users/1") == 1, "not retried")
  }
}

/// Hostile numbers at every numeric input of the CLI: each run ends with a documented status
/// (0, 1, 2, 77 or 78) and at most one error line — never a trap.
@Suite("strata-demo with extreme numbers")
struct ExtremeNumberCLITests {
  static let values = [
    "0", "-1", "9223372036854775807", "-9223372036854775808", "99999999999999999999", "1e300",
    "", "١٢٣", "+2",
  ]

  static func invocations(_ value: String) -> [[String]] {
    [
      ["users", "--limit", value], ["users", "--skip", value], ["user", value],
      ["--set", "RETRY_MAX_RETRIES=\(value)", "users", "--limit", "1"],
      ["--set", "DEADLINE=\(value)s", "users", "--limit", "1"],
      ["--set", "IDLE_TIMEOUT=\(value)ms", "users", "--limit", "1"],
      ["--set", "MAX_RESPONSE_SIZE=\(value)", "users", "--limit", "1"],
      ["--set", "TOKEN_LIFETIME=\(value)m", "login", "--username", "emilys", "--password", "x"],
      ["sandbox", "serve", "--port", value, "--fault", "GET /x delay=\(value)s"],
    ]
  }

  @Test(arguments: values)
  func everyNumericInputEndsWithADocumentedStatus(_ value: String) async throws {
    let cli = try CLIRunner()
    for arguments in Self.invocations(value) where !(arguments.first == "sandbox" && value == "0") {
      let result = try await cli.run(arguments, timeout: 300)
      #expect([0, 1, 2, 77, 78].contains(result.status), "\(arguments) → \(result.status)")
      let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("strata-demo:") }
      #expect(errors.count <= 1, "\(arguments): \(result.stderr)")
      #expect(result.stderr.count < 2_000, "\(arguments) printed \(result.stderr.count) characters")
    }
  }
}
