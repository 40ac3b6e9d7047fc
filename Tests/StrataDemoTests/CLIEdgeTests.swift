import Foundation
import Strata
import StrataSandbox
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The CLI at its edges, through the built binary: quiet on success, configuration checked
/// before anything starts, output that cannot be written, `--http-log` paths, error messages
/// and passwords.
@Suite("strata-demo at the edges")
struct CLIEdgeTests {
  /// Runs `script` with `sh -c`; `$0` is the binary (for redirections the runner cannot make).
  static func shell(_ cli: CLIRunner, _ script: String, _ arguments: [String] = [])
    async throws -> CLIRunner.Result
  {
    var runner = cli
    runner.executable = "/bin/sh"
    return try await runner.run(["-c", script, CLIRunner.binary] + arguments)
  }

  /// Runs the binary with `arguments` in the background until its standard output has a line
  /// matching `pattern` (`grep` syntax; polled with a hang guard of 300 s, not a verdict on
  /// speed), then sends `signal` and reports `exit=<status>` followed by that output.
  /// `watching`: the stream (`out` or `err`) waited on for `pattern`, and printed after the
  /// exit status.
  static func runUntil(
    _ cli: CLIRunner, _ pattern: String, then signal: String, _ arguments: [String],
    watching stream: String = "out"
  ) async throws -> CLIRunner.Result {
    let script = """
      "$0" "$@" > "$HOME/until.out" 2> "$HOME/until.err" &
      pid=$!
      tries=0
      until grep -q '\(pattern)' "$HOME/until.\(stream)" || [ $tries -ge 3000 ]; do
        sleep 0.1; tries=$((tries + 1))
      done
      kill -\(signal) $pid
      wait $pid
      echo "exit=$?"
      cat "$HOME/until.\(stream)"
      """
    return try await shell(cli, script, arguments)
  }

  // MARK: Quiet on success

  @Test func aSuccessfulCommandPrintsNoLogLinesUnlessAsked() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let quiet = try await cli.run(api + ["users", "--limit", "1"])
      #expect(quiet.status == 0 && quiet.stdout.contains("Emily"))
      #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
      let sandbox = try await cli.run(["--sandbox", "users", "--limit", "1"])
      #expect(sandbox.status == 0 && sandbox.stderr.isEmpty, "\(sandbox.stderr)")

      for asked in [["-v"], ["--verbose"], ["--log-level", "info"], ["--set", "LOG_LEVEL=info"]] {
        let loud = try await cli.run(asked + ["--sandbox", "users", "--limit", "1"])
        #expect(loud.status == 0 && loud.stderr.contains("embedded sandbox on"), "\(asked)")
      }
      var environment = cli
      environment.extraEnvironment = ["LOG_LEVEL": "info"]
      let fromEnvironment = try await environment.run(["--sandbox", "users", "--limit", "1"])
      #expect(fromEnvironment.stderr.contains("embedded sandbox on"), "\(fromEnvironment.stderr)")

      // Warnings still show: a refresh that fails (500) keeps the session and says so.
      _ = try await SecurityCLITests.login(cli, server)
      server.faults.add(.init(method: "GET", path: "/auth/me", action: .respond(status: 401)))
      server.faults.add(.init(method: "POST", path: "/auth/refresh", action: .respond(status: 500)))
      let warned = try await cli.run(api + ["me"])
      #expect(warned.stderr.contains("warning"), "\(warned.stderr)")
    }
  }

  // MARK: Configuration first

  @Test(arguments: [
    ["--set", "DEADLINE=99999999999999999999s"], ["--set", "RETRY_MAX_RETRIES=-1"],
    ["--set", "USERS_CACHE_TTL=soon"], ["--set", "LOG_FORMAT=xml"],
  ])
  func aBadValueIsOneLineAndExit78BeforeAnythingStarts(_ bad: [String]) async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let remote = try await cli.run(
        ["--api", server.baseURL.absoluteString] + bad + ["-v", "users"])
      #expect(remote.status == 78, "\(remote.stderr)")
      #expect(server.journal.count() == 0, "nothing was sent")
      let sandbox = try await cli.run(bad + ["-v", "--sandbox", "users"])
      #expect(sandbox.status == 78)
      let lines = sandbox.stderr.split(separator: "\n")
      #expect(
        lines.count == 1, "one line; the sandbox, only listening, is stopped: \(sandbox.stderr)")
      #expect(lines.first?.hasPrefix("strata-demo: configuration error: ") == true)
    }
  }

  /// A configuration that fans out (each file including the next ten times) or a file of
  /// 200 MB is refused at once: exit 78, one line naming the file, nothing started.
  @Test func aConfigThatFansOutOrIsHugeIsOneLineAndExit78() async throws {
    let cli = try CLIRunner()
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-config-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for level in 0..<7 {
      let includes =
        level < 6 ? String(repeating: "#include \"f\(level + 1).xcconfig\"\n", count: 10) : ""
      let text = "// " + String(repeating: "x", count: 1000) + "\nK\(level) = 1\n" + includes
      try text.write(toFile: directory + "/f\(level).xcconfig", atomically: false, encoding: .utf8)
    }
    let huge = directory + "/huge.xcconfig"
    #expect(FileManager.default.createFile(atPath: huge, contents: nil))
    let handle = try #require(FileHandle(forWritingAtPath: huge))
    try handle.truncate(atOffset: 200 << 20)
    try handle.close()
    for (file, says) in [
      ("/f0.xcconfig", "more than 256 includes"), ("/huge.xcconfig", "over 4 MiB"),
    ] {
      let result = try await cli.run(["--config", directory + file, "--sandbox", "users"])
      #expect(result.status == 78, "\(result.stderr)")
      let lines = result.stderr.split(separator: "\n")
      #expect(lines.count == 1 && lines.first?.contains(says) == true, "\(result.stderr)")
      #expect(result.stdout.isEmpty)
    }
  }

  // MARK: Output that cannot be written

  @Test func aFullOrClosedStdoutIsExit74WithOneLine() async throws {
    let cli = try CLIRunner()
    // /dev/full (every write ENOSPC) is Linux's; a closed stdout is everyone's.
    let full = FileManager.default.fileExists(atPath: "/dev/full") ? [">/dev/full"] : []
    for redirection in full + [">&-"] {
      let result = try await Self.shell(
        cli, "\"$0\" --sandbox users --limit 3 \(redirection); echo \"status $?\" >&2")
      let lines = result.stderr.split(separator: "\n")
      #expect(lines.last == "status 74", "\(redirection): \(result.stderr)")
      #expect(lines.count == 2 && lines.first?.contains("cannot write the output") == true)
    }
  }

  @Test func aReaderThatWentAwayEndsTheProcessBySIGPIPE() throws {
    // The pipe's reading end is closed before the process starts: its first write fails.
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    close(ends[0])
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CLIRunner.binary)
    process.arguments = ["--help"]
    process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
    process.standardError = FileHandle.nullDevice
    try CLIRunner.spawn(process)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == SIGPIPE, "a shell reports 128 + 13 = 141")
  }

  // MARK: --http-log writes to the path

  @Test func theHTTPLogIsWrittenToThePathNeverReplacingIt() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let target = cli.home + "/target.jsonl"
      try Data("old\n".utf8).write(to: URL(fileURLWithPath: target))
      let log = cli.home + "/log.jsonl"
      try Data("older\n".utf8).write(to: URL(fileURLWithPath: log))
      let written = try await cli.run(api + ["--http-log", log, "users", "--limit", "1"])
      #expect(written.status == 0, "\(written.stderr)")
      let lines = try String(contentsOfFile: log, encoding: .utf8)
      #expect(
        lines.hasPrefix("{") && lines.contains("\"status\":200"), "truncated, then one line")
      // A link planted at the path, symbolic or hard, is refused: its target stays as it was.
      let symbolic = cli.home + "/link.jsonl"
      try FileManager.default.createSymbolicLink(atPath: symbolic, withDestinationPath: target)
      let hard = cli.home + "/hard.jsonl"
      #expect(link(target, hard) == 0)
      for planted in [symbolic, hard] {
        let refused = try await cli.run(api + ["--http-log", planted, "users", "--limit", "1"])
        #expect(refused.status == 73, "\(planted): \(refused.stderr)")
        #expect(refused.stderr.contains("a link to another file"), "\(refused.stderr)")
      }
      #expect(try String(contentsOfFile: target, encoding: .utf8) == "old\n", "untouched")
      let viaLink = cli.home + "/null.jsonl"
      try FileManager.default.createSymbolicLink(atPath: viaLink, withDestinationPath: "/dev/null")
      let toDevice = try await cli.run(api + ["--http-log", viaLink, "users", "--limit", "1"])
      #expect(toDevice.status == 0, "a link to a device is written to: \(toDevice.stderr)")

      let device = try await cli.run(api + ["--http-log", "/dev/null", "users", "--limit", "1"])
      #expect(device.status == 0, "\(device.stderr)")
      var status = stat()
      #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)

      let fifo = cli.home + "/fifo"
      #expect(mkfifo(fifo, 0o600) == 0)
      let sent = server.journal.count()
      for refused in [fifo, cli.home, "/nonexistent/dir/log.jsonl"] {
        let result = try await cli.run(api + ["--http-log", refused, "users"])
        #expect(result.status == 73, "\(refused): \(result.stderr)")
        #expect(result.stderr.contains("cannot write the HTTP log"))
      }
      #expect(server.journal.count() == sent, "nothing sent when the log cannot be written")
      #expect(stat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO stays")

      // A full disk (/dev/full answers every write with ENOSPC): the command still runs, but
      // does not pass for one that kept its log — one line on stderr and exit 73.
      if FileManager.default.fileExists(atPath: "/dev/full") {
        let full = try await cli.run(api + ["--http-log", "/dev/full", "users", "--limit", "1"])
        #expect(full.status == 73, "\(full.stderr)")
        #expect(
          full.stderr.hasSuffix(
            "strata-demo: the HTTP log '/dev/full' could not be written: No space left on device (1 line lost)\n"
          ))
        #expect(full.stdout.contains("Emily"), "the command's own output is there")
      }
    }
  }

  // MARK: Errors name what was wrong

  /// What the user typed is echoed as text, never obeyed by the terminal: an OSC title
  /// change, a C1 CSI and a right-to-left override in an unknown command or a title.
  @Test func userTextEchoedToTheTerminalCannotDriveIt() async throws {
    let cli = try CLIRunner()
    for hostile in ["\u{1B}]0;pwn\u{07}", "x\u{9B}31m", "evil\u{202E}txt"] {
      let result = try await cli.run([hostile])
      #expect(result.status == 2)
      for scalar in result.all.unicodeScalars {
        #expect(![0x1B, 0x07, 0x9B, 0x202E].contains(scalar.value), "\(result.all)")
      }
      #expect(result.stderr.contains("unknown command '"))
    }
    let kept = try await cli.run([
      "--api", "http://127.0.0.1:9", "post", "create", "--offline", "--title", "T\u{1B}[2J",
      "--body", "b",
    ])
    #expect(kept.status == 0 && kept.stdout.contains("T\\u{1B}[2J"), "\(kept.all)")
  }

  @Test func usageErrorsNameTheWrongArgument() async throws {
    let cli = try CLIRunner()
    let misspelt = try await cli.run(["--sandbox", "users", "--limt", "3"])
    #expect(misspelt.status == 2)
    #expect(misspelt.stderr.contains("unknown option '--limt' for 'users'"), "\(misspelt.stderr)")

    let api = try await cli.run(["--api", "notaurl", "users"])
    #expect(api.status == 2)
    #expect(api.stderr.contains("--api needs an http or https URL"), "\(api.stderr)")
    #expect(!api.stderr.contains("--set"))

    let level = try await cli.run(["--log-level", "loud", "--sandbox", "users"])
    #expect(level.status == 2 && level.stderr.contains("--log-level must be one of"))
    #expect(
      level.stderr.contains("usage: strata-demo [global options] COMMAND"),
      "a global option's usage, not the command's: \(level.stderr)")
  }

  // MARK: Passwords and sessions

  @Test func passwordStdinReadsOneLineAndTheHelpWarnsAboutPs() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = server.baseURL.absoluteString
      let password = SecurityCLITests.password
      let signedIn = try await Self.shell(
        cli, "printf '%s\\n' \"$1\" | \"$0\" --api \"$2\" login --username emilys --password-stdin",
        [password, api])
      #expect(
        signedIn.status == 0 && signedIn.stdout.contains("signed in as"), "\(signedIn.stderr)")
      #expect(!signedIn.all.contains(password))
      #expect(FileManager.default.fileExists(atPath: cli.credentialsPath(for: server.baseURL)))

      let empty = try await cli.run(
        ["--api", api, "login", "--username", "emilys", "--password-stdin"])
      #expect(empty.status == 1 && empty.stderr.contains("no password on stdin"))

      let help = try await cli.run(["login", "--help"])
      #expect(help.stdout.contains("--password-stdin") && help.stdout.contains("'ps'"))

      // A file piped in, not a password: refused after 4 KiB, never read whole (it was
      // 2.9 GB of memory for 3 GB piped in). `head` ends when the reader is gone.
      let flood = try await Self.shell(
        cli,
        "head -c 50000000 /dev/zero | \"$0\" --api \"$1\" login --username emilys --password-stdin",
        [api])
      #expect(flood.status == 1 && flood.stderr.contains("longer than 4096 bytes: refused"))
      #expect(server.journal.count(path: "/auth/login") == 1, "only the first login was sent")
    }
  }

  @Test func endOfInputAtThePasswordPromptCancels() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      // Ctrl-D (EOT) at the start of a line: end of input for the reading process.
      let run = try await PseudoTerminal.run(
        cli, ["--api", server.baseURL.absoluteString, "login", "--username", "emilys"],
        stdinOnTerminal: true, answers: [("password: ", "\u{04}")])
      #expect(run.status == 1, "\(run.shown)")
      #expect(run.shown.contains("cancelled"), "\(run.shown)")
      #expect(server.journal.count(path: "/auth/login") == 0)
    }
  }

  @Test func logoutWithoutASessionSaysSo() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let result = try await cli.run(["--api", server.baseURL.absoluteString, "logout"])
      #expect(result.status == 0)
      #expect(result.stdout.contains("not signed in"), "\(result.stdout)")
      #expect(server.journal.count() == 0)
    }
  }

  // MARK: --json

  @Test func jsonOutputEscapesTerminalControlsFromTheServer() async throws {
    try await withSandbox { server in
      let hostile = "Emily\u{9B}31mRED\u{202E}txt.exe\u{2066}x\u{85}y"
      let body =
        #"{"id":1,"firstName":"\#(hostile)","lastName":"J","age":30,"#
        + #""username":"emilys","email":"e@x.dummyjson.com"}"#
      server.faults.add(
        .init(
          method: "GET", path: "/users/1", count: 2,
          action: .respond(status: 200, headers: ["Content-Type": "application/json"], body: body)))
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let json = try await cli.run(api + ["--json", "user", "1"])
      #expect(json.status == 0, "\(json.stderr)")
      for control: Unicode.Scalar in ["\u{9B}", "\u{202E}", "\u{2066}", "\u{85}"] {
        #expect(!json.stdout.unicodeScalars.contains(control), "raw U+\(control.value) printed")
      }
      #expect(json.stdout.contains(#"Emily\u009b31mRED\u202etxt.exe\u2066x\u0085y"#))
      let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
      #expect(decoded?["firstName"] as? String == hostile, "a JSON reader gets the text back")
      let table = try await cli.run(api + ["user", "1"])
      #expect(!table.stdout.unicodeScalars.contains("\u{9B}"))
    }
  }
}
