/// Every command the CLI has, in the order `--help` lists them. Each feature's file declares its
/// entries and adds one term to ``commands`` (a test fails when a command file is left out).
enum CommandTable {
  static let version = "strata-demo 0.1.0"

  static let commands: [Command] =
    TourCommand.commands + AccountCommands.commands + UserCommands.commands
    + UserPostsCommands.commands + PostCommands.commands + TodoCommands.commands
    + SyncCommand.commands + SettingsCommands.commands + ConfigCommand.commands
    + CacheCommands.commands
    + SandboxCommand.commands

  /// The command named by the first words of `words`, the longest name winning (`user posts 1`
  /// is `user posts`, not `user` with two arguments).
  static func command(startingWith words: [String]) -> Command? {
    commands.filter { command in
      words.count >= command.words.count
        && Array(words.prefix(command.words.count)) == command.words
    }
    .max { $0.words.count < $1.words.count }
  }

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
      name: "no-cache", valueName: nil,
      help: "ask the server for every read (same as --set HTTP_CACHE=off)"),
    OptionSpec(
      name: "verbose", valueName: nil,
      help: "-v: also print info log lines on stderr (default: warnings and errors only)"),
    OptionSpec(
      name: "http-log", valueName: "FILE",
      help: "write a JSON line per HTTP attempt (method, redacted URL, status, duration…)"),
    OptionSpec(
      name: "analytics-log", valueName: "FILE",
      help: "write a JSON line per analytics event (ids, counts and statuses only)"),
    OptionSpec(
      name: "help", valueName: nil, help: "show help (for a command: strata-demo COMMAND --help)"),
    OptionSpec(name: "version", valueName: nil, help: "print the version"),
  ]

  /// `posts`, `todos`: a list from the server, or with `--local` the one the device keeps.
  static func deviceList(_ things: String, limit: Int, run: Command.Run) -> Command {
    Command(
      things, summary: "List \(things) (--local: those kept on this device, with their status).",
      options: paging + [
        OptionSpec(name: "local", valueName: nil, help: "list the device's \(things), no request")
      ], example: "strata-demo \(things) --limit \(limit)", run: run)
  }

  /// `--offline`: a change kept on this device (`verb`: "keep it", "flip it").
  static func offline(_ verb: String) -> OptionSpec {
    OptionSpec(
      name: "offline", valueName: nil,
      help: "\(verb) on this device as pending; 'sync' sends it (also when there is no route)")
  }

  /// `--limit` and `--skip`, for every list.
  static let paging = [
    OptionSpec(name: "limit", valueName: "N", help: "how many (default 10)"),
    OptionSpec(name: "skip", valueName: "N", help: "how many to skip (default 0)"),
  ]

  static var help: String {
    let width = commands.map(\.name.count).max() ?? 0
    let list = commands.map {
      "  " + $0.name + String(repeating: " ", count: width - $0.name.count + 2) + $0.summary
    }
    return """
      strata-demo — every layer of Strata, live: Config → Log → Request → NetworkService →
      Repository → ViewModel, wired by a DI container, against the embedded sandbox or
      https://dummyjson.com.

      Usage: strata-demo [global options] COMMAND [options]

      Commands:
      \(list.joined(separator: "\n"))

      Global options:
      \(OptionSpec.table(globalOptions))
      Exit status: 0 ok, 1 failure, 2 usage, 65 input refused (nothing sent), 73 a log file
      not writable, 74 stdout not writable, 75 changes wait (sync), 77 not signed in,
      and 78 configuration error or a feature turned off.

      """
  }
}
