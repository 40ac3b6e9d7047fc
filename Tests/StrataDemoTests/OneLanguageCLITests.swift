import Foundation
import StrataSandbox
import Testing

@testable import strata_demo

/// `--json` is for programs: English and JSON whatever `LANG` says, its errors included; a
/// command that cannot print JSON refuses `--json`. Without it, German is German all through
/// `--help` and the usage errors, and the CLI's own words help (`help COMMAND`, a missing
/// argument named, the command's own usage for a missing option value).
@Suite("strata-demo: one language at a time")
struct OneLanguageCLITests {
  static func german() throws -> CLIRunner {
    var cli = try CLIRunner()
    cli.extraEnvironment = ["LANG": "de_DE.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""]
    return cli
  }

  /// The one JSON object `--json` writes on stderr for a failure.
  static func problem(_ stderr: String) throws -> [String: Any] {
    let lines = stderr.split(separator: "\n")
    #expect(lines.count == 1, "one line: \(stderr)")
    return try #require(
      try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
  }

  @Test func errorsUnderJSONAreOneEnglishObject() async throws {
    let cli = try Self.german()
    let usage = try await cli.run(["--json", "user"])
    #expect(usage.status == 2 && usage.stdout.isEmpty)
    let refused = try Self.problem(usage.stderr)
    #expect(refused["error"] as? String == "'user' needs ID")
    #expect(refused["exit"] as? Int == 2)
    #expect((refused["detail"] as? String)?.contains("usage: strata-demo user ID") == true)

    let unreachable = try await cli.run([
      "--json", "--api", "http://127.0.0.1:9", "--set", "RETRY_MAX_RETRIES=0", "post", "create",
      "--title", "t", "--body", "b", "--user-id", "1",
    ])
    #expect(unreachable.status == 1 && unreachable.stdout.isEmpty)
    let failed = try Self.problem(unreachable.stderr)
    #expect(
      failed["error"] as? String
        == "post create failed: POST /posts/add: network error: could not connect to the server")
    #expect((failed["detail"] as? String)?.contains("--offline") == true, "the way to keep it")
    #expect(failed["exit"] as? Int == 1)

    for command in [["tour"], ["sandbox", "serve"]] {
      let result = try await cli.run(["--json"] + command)
      #expect(result.status == 2 && result.stdout.isEmpty)
      #expect(
        try Self.problem(result.stderr)["error"] as? String
          == "'\(command.joined(separator: " "))' prints no JSON: run it without --json")
    }
  }

  @Test func theCLISaysWhatIsMissing() async throws {
    let cli = try CLIRunner()
    let help = try await cli.run(["help", "user"])
    #expect(help.status == 0 && help.stdout.hasPrefix("Show one user."))
    let all = try await cli.run(["help"])
    #expect(all.status == 0 && all.stdout.contains("  help "))
    let unknown = try await cli.run(["help", "frob"])
    #expect(unknown.status == 2 && unknown.stderr.contains("unknown command 'frob'"))
    let value = try await cli.run(["user", "1", "--avatar"])
    #expect(value.status == 2 && value.stderr.contains("--avatar needs a value"))
    #expect(value.stderr.contains("usage: strata-demo user ID [--avatar FILE]"), "the command's")
    let global = try await cli.run(["users", "--api"])
    #expect(global.stderr.contains("usage: strata-demo [global options] COMMAND [options]"))
    let reset = try await cli.run(["settings", "reset", "frob"])
    #expect(reset.status == 65 && reset.stderr.contains("no setting 'frob'"), "\(reset.stderr)")
  }

  /// Two English words running together in German output are an English sentence left over
  /// (the tour's, `--help` of every command, the usage errors).
  /// Command syntax (`strata-demo …`, `--options`, `'quoted'`, upper-case placeholders) and
  /// the settings' literal values are left out: they are typed as they are.
  static let englishWords: Set<Substring> = [
    "the", "and", "with", "from", "your", "this", "that", "which", "not", "for", "of", "to", "is",
    "are", "was", "be", "could", "would", "when", "where", "each", "every", "only", "then", "show",
    "a", "an", "on", "in", "no", "it", "its", "or", "by", "as", "at", "changes", "change", "kept",
    "device", "sent", "send", "list", "one", "user", "users", "post", "posts", "needs", "takes",
  ]

  static func englishRuns(_ text: String) -> [String] {
    text.split(separator: "\n").compactMap { line -> String? in
      var prose = String(line)
      // A command list's names (`  user posts   Die Beiträge…`) are syntax too.
      // So are requests (`POST /posts/add`), the server's own text, shown „quoted“, and
      // the feed's event types (`posts.kept`). A token with a digit in it is an id or a number
      // (`a2d9a71a` is not the words "a a"), never prose.
      for pattern in [
        #"^\s{2}[a-z]+( [a-z]+)?\s{2,}"#, #"„[^“]*“"#, #"\b(GET|POST|PUT|PATCH|DELETE) /\S*"#,
        #"\b[a-z]+\.[a-z]+\b"#,
        #"\b[A-Z][A-Z0-9_]+ = [^,]+"#,
        #"'[^']*'"#, #"strata-demo[^,;:()]*"#, #"--[a-z-]+"#, #"https?://\S+"#,
        #"\b\w*[0-9]\w*\b"#,
      ] {
        prose = prose.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
      }
      let words = prose.split(whereSeparator: { !$0.isLetter }).map { $0.lowercased() }
      for (first, second) in zip(words, words.dropFirst())
      where englishWords.contains(Substring(first)) && englishWords.contains(Substring(second)) {
        return "\(first) \(second) in: \(line)"
      }
      return nil
    }
  }

  /// A change's status in a German table is German; `--json` keeps the store's word.
  @Test func aStatusInAGermanTableIsGerman() async throws {
    try await withSandbox { server in
      let cli = try Self.german()
      let api = ["--api", server.baseURL.absoluteString]
      let made = try await cli.run(
        api + ["post", "create", "--title", "Offline", "--body", "b", "--offline"])
      #expect(made.status == 0, "\(made.stderr)")
      let table = try await cli.run(api + ["posts", "--local"])
      #expect(table.stdout.contains("ausstehend") && !table.stdout.contains("pending"))
      let json = try await cli.run(api + ["--json", "posts", "--local"])
      #expect(json.stdout.contains(#""pending""#), "\(json.stdout)")
    }
  }

  @Test func germanTourHelpAndUsageErrorsHaveNoEnglishSentence() async throws {
    let cli = try Self.german()
    var outputs = [try await cli.run(["--help"]).stdout]
    let names = try await cli.run(["--help"]).stdout.split(separator: "\n")
    #expect(names.count > 20)
    for command in [
      "tour", "login", "logout", "me", "users", "user", "user posts", "posts", "post create",
      "post edit", "post delete", "post comments", "todos", "todo add", "todo edit",
      "todo toggle", "todo delete", "sync", "settings", "settings set", "settings reset",
      "config show", "cache show", "cache clear", "download", "sandbox serve", "events",
    ] {
      let help = try await cli.run(command.split(separator: " ").map(String.init) + ["--help"])
      #expect(help.status == 0, "\(command)")
      outputs.append(help.stdout)
    }
    for arguments in [
      ["user"], ["post", "frob"], ["user", "1", "--avatar"], ["frob"], ["users", "--limit", "x"],
    ] {
      outputs.append(try await cli.run(arguments).stderr)
    }
    // The library's failures, said in German too.
    let unreachable = try await cli.run([
      "--api", "http://127.0.0.1:9", "--set", "RETRY_MAX_RETRIES=1", "--set",
      "RETRY_BASE_DELAY=1ms",
      "post", "create", "--title", "t", "--body", "b", "--user-id", "1",
    ])
    #expect(unreachable.stderr.contains("Netzwerkfehler: keine Verbindung zum Server"))
    outputs.append(unreachable.stderr)
    let tour = try await cli.run(["tour"])
    #expect(tour.status == 0 && tour.stdout.contains("[15/15]"))
    outputs.append(tour.all)
    let english = outputs.flatMap(Self.englishRuns)
    #expect(english.isEmpty, "\(english.joined(separator: "\n"))")
    // Usage placeholders are German too: what a user types in their place is named in German.
    let all = outputs.joined(separator: "\n")
    for placeholder in ["FILE", "KEY=VALUE", "LEVEL", "PASSWORD", "FIELD"] {
      #expect(
        all.range(of: "\\b\(placeholder)\\b", options: .regularExpression) == nil,
        "\(placeholder) in German output")
    }
    #expect(all.contains("--config DATEI") && all.contains("--set SCHLÜSSEL=WERT"))
    // The check itself: an English sentence is caught.
    #expect(!Self.englishRuns("strata-demo: could not connect to the server").isEmpty)
    #expect(Self.englishRuns("als lokale ID a2d9a71a angelegt").isEmpty)
  }
}

/// One story of the configuration: `config show` lists every key the app and the network layer
/// declare, each with where its value came from — none is read only as a default in code.
@Suite("strata-demo config show: every key")
struct EveryConfigKeyTests {
  @Test func configShowListsEveryDeclaredKey() async throws {
    var declared: Set<String> = []
    for file in [
      "Sources/DemoKit/API/Config+DemoKeys.swift",
      "Sources/Strata/Networking/Call/Config+NetworkKeys.swift",
    ] {
      let text = try String(
        contentsOf: CLIRunner.packageRoot.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") where line.contains(": Config.Key = \"") {
        declared.insert(String(line.split(separator: "\"")[1]))
      }
    }
    // A path under the app's data directory, computed where it is used.
    declared.remove("STORE_DIRECTORY")
    #expect(declared.count >= 15, "the declarations were read: \(declared.sorted())")
    let shown = try await CLIRunner().run(["--json", "config", "show"])
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [[String: Any]])
    let keys = Set(rows.compactMap { $0["key"] as? String })
    #expect(declared.subtracting(keys).isEmpty, "not shown: \(declared.subtracting(keys).sorted())")
  }
}

/// `--json` output of every command parses as JSON: each command's own `--help` example is
/// run with it against the sandbox (signed in), and prints JSON on stdout, or — for a command
/// that cannot — is refused with exit 2 and a JSON error on stderr.
@Suite("strata-demo --json: every command")
struct EveryCommandJSONTests {
  /// Splits an example as a shell would (words, 'single-quoted' words).
  static func words(_ example: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    var started = false
    for character in example {
      if character == "'" {
        quoted.toggle()
        started = true
      } else if character == " ", !quoted {
        if started { words.append(current) }
        (current, started) = ("", false)
      } else {
        current.append(character)
        started = true
      }
    }
    if started { words.append(current) }
    return words
  }

  @Test func everyExamplePrintsJSONOrIsRefused() async throws {
    #expect(Self.words("a 'b c' d") == ["a", "b c", "d"])
    // Writes kept: the `post create` example before it gives `events --after 0 --count 1` an
    // event to replay.
    try await CLIRunner.withSandbox(
      ["--set", "IDLE_TIMEOUT=300s", "--set", "DEADLINE=300s"],
      configuration: EveryChangeCLITests.keeping()
    ) { _, cli, api in
      let home = URL(fileURLWithPath: cli.home)
      let login = try await cli.run(
        api + ["--json", "login", "--username", "emilys", "--password", "emilyspass"], in: home)
      #expect(login.status == 0, "\(login.stderr)")
      // In table order (a `logout` comes before `me`: then `me`'s JSON is its error); the
      // login example is a shell pipeline, done above.
      for command in CommandTable.commands where !command.example.hasPrefix("printf") {
        var arguments = Array(Self.words(command.example).dropFirst())
        if let config = arguments.firstIndex(of: "Config/Release.xcconfig") {
          arguments[config] = CLIRunner.packageRoot.path + "/Config/Release.xcconfig"
        }
        let result = try await cli.run(api + ["--json"] + arguments, in: home)
        let shown = Comment(rawValue: "\(command.name): exit \(result.status)\n\(result.all)")
        if !command.printsJSON { #expect(result.status == 2, shown) }
        guard result.stdout.isEmpty else {
          #expect(
            (try? JSONSerialization.jsonObject(
              with: Data(result.stdout.utf8), options: .fragmentsAllowed)) != nil, shown)
          continue
        }
        #expect(result.status != 0, shown)
        let line = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(
          (try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], shown)
      }
    }
  }
}
