/// Every command and option the CLI accepts, with the help text shown for them.
struct CommandSpec: Sendable {
  let words: [String]
  let summary: String
  let positionals: [String]
  let options: [OptionSpec]
  let example: String

  var name: String { words.joined(separator: " ") }

  var usage: String {
    let positional = positionals.map { " \($0)" }.joined()
    let options = self.options.map { " [--\($0.name)\($0.valueName.map { " \($0)" } ?? "")]" }
      .joined()
    return "strata-demo \(name)\(positional)\(options)"
  }

  var help: String {
    var text = "\(summary)\n\nUsage: \(usage)\n"
    if !options.isEmpty {
      text += "\nOptions:\n" + OptionSpec.table(options)
    }
    text += "\nGlobal options:\n" + OptionSpec.table(CommandCatalog.globalOptions)
    text += "\nExample:\n  \(example)\n"
    return text
  }
}

struct OptionSpec: Sendable {
  let name: String
  let valueName: String?
  let help: String

  static func table(_ options: [OptionSpec]) -> String {
    let labels = options.map { "--\($0.name)\($0.valueName.map { " \($0)" } ?? "")" }
    let width = labels.map(\.count).max() ?? 0
    return zip(labels, options).map { label, option in
      "  " + label + String(repeating: " ", count: width - label.count + 2) + option.help + "\n"
    }.joined()
  }
}

enum CommandCatalog {
  static let version = "strata-demo 0.1.0"

  static let globalOptions: [OptionSpec] = [
    OptionSpec(
      name: "config", valueName: "FILE",
      help:
        "configuration file (or STRATA_CONFIG); none is read from the working directory"),
    OptionSpec(
      name: "api", valueName: "URL", help: "API base URL, or 'sandbox' for the embedded server"),
    OptionSpec(
      name: "sandbox", valueName: nil,
      help: "start the embedded sandbox and use it (same as --api sandbox)"),
    OptionSpec(
      name: "set", valueName: "KEY=VALUE", help: "override a configuration key (repeatable)"),
    OptionSpec(
      name: "log-level", valueName: "LEVEL",
      help: "trace, debug, info, notice, warning, error or critical"),
    OptionSpec(name: "json", valueName: nil, help: "print JSON instead of tables"),
    OptionSpec(
      name: "http-log", valueName: "FILE",
      help: "write a JSON line per HTTP attempt (method, redacted URL, status, duration…)"),
    OptionSpec(
      name: "help", valueName: nil, help: "show help (for a command: strata-demo COMMAND --help)"),
    OptionSpec(name: "version", valueName: nil, help: "print the version"),
  ]

  static let paging = [
    OptionSpec(name: "limit", valueName: "N", help: "how many (default 10)"),
    OptionSpec(name: "skip", valueName: "N", help: "how many to skip (default 0)"),
  ]

  static let commands: [CommandSpec] = [
    CommandSpec(
      words: ["tour"],
      summary: "Run every layer live against the embedded sandbox, narrating each step.",
      positionals: [], options: [], example: "strata-demo tour"),
    CommandSpec(
      words: ["login"], summary: "Sign in; the session is kept (0600) for the next commands.",
      positionals: [],
      options: [
        OptionSpec(
          name: "username", valueName: "NAME", help: "login name (prompted in a terminal)"),
        OptionSpec(
          name: "password", valueName: "PASSWORD",
          help: "password (prompted without echo in a terminal)"),
      ],
      example:
        "strata-demo --api http://127.0.0.1:8080 login --username emilys --password emilyspass"),
    CommandSpec(
      words: ["logout"], summary: "Forget the stored session.", positionals: [], options: [],
      example: "strata-demo logout"),
    CommandSpec(
      words: ["me"], summary: "Show the signed-in user (refreshing the token if needed).",
      positionals: [],
      options: [], example: "strata-demo me"),
    CommandSpec(
      words: ["users"], summary: "List users.", positionals: [],
      options: paging + [
        OptionSpec(name: "search", valueName: "TEXT", help: "only users matching TEXT")
      ],
      example: "strata-demo users --limit 5 --skip 5"),
    CommandSpec(
      words: ["user"], summary: "Show one user.", positionals: ["ID"], options: [],
      example: "strata-demo user 1"),
    CommandSpec(
      words: ["posts"], summary: "List posts.", positionals: [], options: paging,
      example: "strata-demo posts --limit 3"),
    CommandSpec(
      words: ["post", "create"], summary: "Create a post (a POST: sent once, never retried).",
      positionals: [],
      options: [
        OptionSpec(name: "title", valueName: "TEXT", help: "title (required)"),
        OptionSpec(name: "body", valueName: "TEXT", help: "text (required)"),
        OptionSpec(name: "user-id", valueName: "N", help: "author (required)"),
      ], example: "strata-demo post create --title Hello --body World --user-id 1"),
    CommandSpec(
      words: ["todos"], summary: "List todos.", positionals: [], options: paging,
      example: "strata-demo todos --limit 5"),
    CommandSpec(
      words: ["todo", "toggle"], summary: "Flip a todo between done and not done.",
      positionals: ["ID"],
      options: [], example: "strata-demo todo toggle 3"),
    CommandSpec(
      words: ["config", "show"], summary: "Show every configuration value and where it came from.",
      positionals: [], options: [],
      example: "strata-demo --config Config/Release.xcconfig config show"),
    CommandSpec(
      words: ["sandbox", "serve"],
      summary: "Run the embedded DummyJSON-compatible API until interrupted.",
      positionals: [],
      options: [
        OptionSpec(name: "port", valueName: "N", help: "port on 127.0.0.1 (default 8080; 0 = any)"),
        OptionSpec(
          name: "fault", valueName: "SPEC",
          help:
            "inject a fault, repeatable: 'GET /users 503x2', '* /posts/* drop', 'GET /todos delay=2s x3', '* /* echo=500', 'GET /users endless'"
        ),
        OptionSpec(
          name: "rotate-refresh-tokens", valueName: nil,
          help: "each refresh token works once (as servers that rotate them do)"),
      ],
      example: "strata-demo sandbox serve --port 8080 --fault 'GET /users 503x2'"),
  ]

  static var help: String {
    let width = commands.map(\.name.count).max() ?? 0
    let list = commands.map {
      "  " + $0.name + String(repeating: " ", count: width - $0.name.count + 2) + $0.summary
    }
    return """
      strata-demo — every layer of Strata, live: Config → Log → Endpoint → NetworkService →
      Repository → ViewModel, wired by a DI container, against the embedded sandbox or
      https://dummyjson.com.

      Usage: strata-demo [global options] COMMAND [options]

      Commands:
      \(list.joined(separator: "\n"))

      Global options:
      \(table(globalOptions))
      Exit status: 0 ok, 1 failure, 2 usage, 77 not signed in, 78 configuration error.

      """
  }

  private static func table(_ options: [OptionSpec]) -> String { OptionSpec.table(options) }
}
