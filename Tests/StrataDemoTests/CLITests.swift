import Dispatch
import Foundation
import StrataSandbox
import Testing

@testable import strata_demo

@Suite("strata-demo (the built binary)")
struct CLITests {
  /// The command table itself: the list `--help` prints and dispatch reads.
  static let commands = CommandTable.commands.map(\.name)

  @Test func theTableHasEveryCommandOnce() {
    #expect(Self.commands.count >= 12)
    #expect(Set(Self.commands).count == Self.commands.count, "no name twice")
  }

  /// A command file that declares commands but was not added to `CommandTable.commands`.
  @Test func everyDeclaredCommandIsInTheTable() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Sources/strata-demo/Commands").standardized
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    // `Command("name", …)`, or `CommandTable.deviceList("name", …)`.
    let declaration = try Regex(#"(?:Command|deviceList)\(\s*"([^"]+)""#)
    var declared: [String] = []
    for file in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for match in text.matches(of: declaration) {
        declared.append(String(match.output[1].substring ?? ""))
      }
    }
    #expect(declared.count >= 15)
    #expect(Set(declared) == Set(Self.commands), "declared but missing from the table")
  }

  @Test func helpAndVersion() async throws {
    let cli = try CLIRunner()
    let help = try await cli.run(["--help"])
    #expect(help.status == 0)
    for command in Self.commands {
      #expect(help.stdout.contains("  \(command)"), "\(command) listed")
    }
    #expect(help.stdout.contains("77 not signed in"))
    let version = try await cli.run(["--version"])
    #expect(version.status == 0 && version.stdout.hasPrefix("strata-demo 0.1.0"))
  }

  /// `help GROUP` lists the commands of a group that is no command itself; with `--json`,
  /// help and the version are JSON objects like every other answer.
  @Test func helpForAGroupAndAsJSON() async throws {
    let cli = try CLIRunner()
    let group = try await cli.run(["help", "post"])
    #expect(group.status == 0, "\(group.stderr)")
    for command in ["post create", "post edit", "post delete"] {
      #expect(group.stdout.contains("strata-demo \(command)"), "\(command): \(group.stdout)")
    }
    for arguments in [["--json", "--help"], ["--json", "help"], ["help", "users", "--json"]] {
      let help = try await cli.run(arguments)
      let object = try JSONSerialization.jsonObject(with: Data(help.stdout.utf8)) as? [String: Any]
      #expect(
        help.status == 0 && (object?["help"] as? String)?.contains("Usage") == true, "\(arguments)")
    }
    let version = try await cli.run(["--json", "--version"])
    let object = try JSONSerialization.jsonObject(with: Data(version.stdout.utf8)) as? [String: Any]
    #expect(object?["version"] as? String == "strata-demo 0.1.0", "\(version.stdout)")
  }

  @Test(arguments: commands)
  func everyCommandHasHelp(_ command: String) async throws {
    let result = try await CLIRunner().run(
      command.split(separator: " ").map(String.init) + ["--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("Usage: strata-demo \(command)"))
    #expect(result.stdout.contains("Example:"))
  }

  @Test(arguments: [
    (["users", "--bogus"], "unknown option '--bogus'"),
    (["users", "-x"], "unknown option '-x' for 'users'"),
    (["users", "--limit"], "--limit needs a value"),
    (["users", "--limit", "ten"], "--limit needs a whole number"),
    (["frobnicate"], "unknown command 'frobnicate'"),
    (["user"], "'user' needs ID"), (["user", "1", "2"], "'user' takes ID; '2' is one too many"),
    (["post", "frob"], "unknown subcommand 'frob' for 'post'"),
    (["tour", "--json"], "'tour' prints no JSON"),
    (["--api", "http://127.0.0.1:1", "tour"], "the tour runs on the embedded sandbox only"),
    (["user", "abc"], "ID must be a positive whole number"),
    (["post"], "'post' needs a subcommand"), ([], "missing command"),
    (["--set", "NOEQUALS", "users"], "--set needs KEY=VALUE"),
    (["--log-level", "loud", "config", "show"], ""),
    (["sandbox", "serve", "--fault", "GET /users nonsense"], "ACTION must be a status"),
  ])
  func badArgumentsExit2WithUsage(_ arguments: [String], _ message: String) async throws {
    let result = try await CLIRunner().run(arguments)
    if arguments.first == "--log-level" {
      #expect(result.status == 0, "config show does not read the log level")
      return
    }
    #expect(result.status == 2, "\(arguments): \(result.stderr)")
    #expect(result.stderr.contains(message))
    #expect(result.stderr.contains("usage: strata-demo"))
    #expect(result.stdout.isEmpty)
  }

  @Test func tourNamesEveryStepAndNeverPrintsASecret() async throws {
    let result = try await CLIRunner().run(["--log-level", "trace", "tour"])
    #expect(result.status == 0, "\(result.stderr)")
    for step in 1...TourCommand.steps {
      #expect(result.stdout.contains("[\(step)/\(TourCommand.steps)]"))
    }
    for phrase in [
      "sign in", "transparent refresh", "cache", "retried with backoff", "its comments",
      "GET /posts/1/comments", "refused — title: Give the post a title. (no request, no event)",
      "analytics: post_created offline=false", "retried under its key, made once",
      "at the second try, both with one Idempotency-Key", "→ reverted to not done",
      "Sign out", "Tour complete", "then from the HTTP cache — fresh for the year",
      // Step 14: another process's write, followed live on GET /events.
      "made a post on the sandbox and exited 0", "it arrived here as an event, after",
      "posts.kept  #", "“Written by another process”", "sandbox saw: GET /events, POST /posts/add",
    ] {
      #expect(result.stdout.contains(phrase), "\(phrase)")
    }
    #expect(result.stdout.contains("POST /auth/refresh"))
    #expect(result.stderr.contains("→ GET"), "trace logging was on")
    for secret in ["eyJhbGciOiJIUzI1NiIs", "emilyspass"] {
      #expect(!result.all.contains(secret), "\(secret) leaked")
    }
  }

  @Test func sessionPersistsAcrossProcesses() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]

      let login = try await cli.run(
        api + ["login", "--username", "emilys", "--password", "emilyspass"])
      #expect(login.status == 0, "\(login.stderr)")
      #expect(login.stdout.contains("signed in as Emily Johnson (@emilys)"))
      let mode =
        (try FileManager.default.attributesOfItem(atPath: cli.credentialsPath(for: server.baseURL))[
          .posixPermissions]
        as? NSNumber)?.intValue
      #expect(mode == 0o600)

      let me = try await cli.run(api + ["me"])
      #expect(me.status == 0, "\(me.stderr)")
      #expect(
        me.stdout.contains("Emily Johnson") && me.stdout.contains("emily.johnson@x.dummyjson.com"))
      #expect(
        server.journal.count(method: "POST", path: "/auth/login") == 1,
        "the second process reused the session")

      let logout = try await cli.run(api + ["logout"])
      #expect(logout.status == 0)
      #expect(!FileManager.default.fileExists(atPath: cli.credentialsPath(for: server.baseURL)))
      let after = try await cli.run(api + ["me"])
      #expect(after.status == 77)
      #expect(after.stderr.contains("not signed in"))
    }
  }

  @Test func wrongPasswordFailsWithTheServersMessage() async throws {
    try await withSandbox { server in
      let result = try await CLIRunner().run([
        "--api", server.baseURL.absoluteString, "login", "--username", "emilys", "--password",
        "nope",
      ])
      #expect(result.status == 1)
      #expect(result.stderr.contains("Invalid credentials"))
      #expect(!result.all.contains("nope"))
    }
  }

  @Test func usersAsJSONAndAsATable() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let json = try await cli.run([
        "--api", server.baseURL.absoluteString, "users", "--limit", "5", "--skip", "5", "--json",
      ])
      #expect(json.status == 0, "\(json.stderr)")
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
      let users = try #require(object["users"] as? [[String: Any]])
      #expect(users.count == 5 && users.first?["id"] as? Int == 6 && object["total"] as? Int == 120)

      let table = try await cli.run([
        "--api=\(server.baseURL.absoluteString)", "users", "--limit=3",
      ])
      let lines = table.stdout.split(separator: "\n")
      #expect(lines.first?.hasPrefix("ID  NAME") == true)
      #expect(lines.count == 5 && lines.last == "showing 1–3 of 120")
      let search = try await cli.run([
        "--api", server.baseURL.absoluteString, "users", "--search", "emily",
      ])
      #expect(search.stdout.contains("emilys"))
    }
  }

  @Test func missingUserExits1WithTheServersMessage() async throws {
    try await withSandbox { server in
      let result = try await CLIRunner().run([
        "--api", server.baseURL.absoluteString, "user", "999",
      ])
      #expect(result.status == 1)
      #expect(result.stderr.contains("User with id '999' not found"))
      #expect(
        result.stderr.split(separator: "\n").filter { $0.hasPrefix("strata-demo:") }.count == 1,
        "one line")
    }
  }

  @Test func aPostWithItsComments() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let shown = try await cli.run(api + ["post", "comments", "1"])
      #expect(shown.status == 0, "\(shown.stderr)")
      #expect(shown.stdout.hasPrefix("Post: #1 "))
      #expect(shown.stdout.contains("ID   USER    LIKES  COMMENT"))
      #expect(shown.stdout.contains("henryl"))
      let json = try await cli.run(api + ["--json", "post", "comments", "1"])
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
      let comments = try #require(object["comments"] as? [[String: Any]])
      #expect((object["post"] as? [String: Any])?["id"] as? Int == 1)
      #expect(!comments.isEmpty && comments.allSatisfy { $0["postId"] as? Int == 1 })
      let missing = try await cli.run(api + ["post", "comments", "9999"])
      #expect(missing.status == 1)
      #expect(missing.stderr.contains("Post with id '9999' not found"))
      let usage = try await cli.run(api + ["post", "comments"])
      #expect(usage.status == 2 && usage.stderr.contains("'post comments' needs ID"))
    }
  }

  @Test func postsTodosAndCreate() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      #expect(
        try await cli.run(api + ["posts", "--limit", "2"]).stdout.contains("showing 1–2 of 150"))
      let created = try await cli.run(
        api + ["post", "create", "--title", "Hi", "--body", "There", "--user-id", "3"])
      #expect(created.status == 0 && created.stdout.contains("#151"))
      // A 503 is retried under the create's key (the help says so): made once.
      server.faults.fail(503, method: "POST", path: "/posts/add")
      let retried = try await cli.run(
        api + ["post", "create", "--title", "Hi", "--body", "There", "--user-id", "3"])
      #expect(retried.status == 0, "\(retried.stderr)")
      let posts = server.journal.entries.filter { $0.path == "/posts/add" }
      #expect(
        posts.count == 3 && posts[1].header("Idempotency-Key") == posts[2].header("Idempotency-Key")
      )
      #expect(posts[0].header("Idempotency-Key") != posts[1].header("Idempotency-Key"))
      #expect(server.changesDone(path: "/posts/add") == 2, "two creates, each made once")
      let toggled = try await cli.run(api + ["todo", "toggle", "3"])
      #expect(toggled.status == 0 && toggled.stdout.contains("todo 3 is now not done"))
      #expect(try await cli.run(api + ["todos", "--limit", "2"]).stdout.contains("DONE"))
    }
  }

  @Test func retryProgressIsShownOnStderr() async throws {
    try await withSandbox { server in
      server.faults.fail(503, method: "GET", path: "/posts", count: 1)
      let result = try await CLIRunner().run(
        [
          "--api", server.baseURL.absoluteString, "--set", "RETRY_BASE_DELAY=10ms", "--log-level",
          "warning", "posts",
        ])
      #expect(result.status == 0)
      #expect(result.stderr.contains("retrying in 10ms (1/3): GET /posts → 503…"))
    }
  }

  @Test func malformedConfigExits78WithALocation() async throws {
    let cli = try CLIRunner()
    let file = cli.home + "/bad.xcconfig"
    try "API = https://dummyjson.com\nTITLE = \"unterminated\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    let result = try await cli.run(["--config", file, "users"])
    #expect(result.status == 78)
    #expect(result.stderr.contains("\(file):2:9: unterminated quoted value"))
    #expect(try await cli.run(["--config", cli.home + "/missing.xcconfig", "users"]).status == 78)
  }

  @Test func configShowHasOriginsAndRedactsSecrets() async throws {
    let result = try await CLIRunner().run([
      "--set", "API_TOKEN=sekrit-123", "--config", "Config/Release.xcconfig", "config", "show",
    ])
    #expect(result.status == 0)
    #expect(result.stdout.contains("Config/Release.xcconfig:4"))
    #expect(result.stdout.contains("https://dummyjson.com"))
    #expect(result.stdout.contains("API_TOKEN") && result.stdout.contains("<redacted>"))
    #expect(!result.all.contains("sekrit-123"))
  }

  @Test func sandboxServeAnswersRequests() async throws {
    let cli = try CLIRunner()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CLIRunner.binary)
    process.arguments = ["sandbox", "serve", "--port", "0", "--fault", "GET /users/2 503"]
    let output = Pipe()
    process.standardOutput = output
    // Not the test runner's stderr: a server left running must not keep `swift test` waiting.
    process.standardError = FileHandle.nullDevice
    try CLIRunner.spawn(process)
    let handle = output.fileHandleForReading
    defer {
      process.terminate()
      try? handle.close()
    }
    let line = await withCheckedContinuation { (continuation: CheckedContinuation<Data, Never>) in
      DispatchQueue.global().async {
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
          let chunk = handle.availableData
          if chunk.isEmpty { break }
          line.append(chunk)
        }
        continuation.resume(returning: line)
      }
    }
    let text = String(decoding: line, as: UTF8.self)
    let url = try #require(
      text.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init))
    let users = try await cli.run(["--api", url, "user", "1"])
    #expect(users.status == 0 && users.stdout.contains("emilys"))
    let faulted = try await cli.run(["--api", url, "--set", "RETRY_MAX_RETRIES=0", "user", "2"])
    #expect(faulted.status == 1 && faulted.stderr.contains("HTTP 503"))
  }
}
