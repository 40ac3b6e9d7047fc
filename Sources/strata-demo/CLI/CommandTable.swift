import DemoKit

/// Every command the CLI has, in the order `--help` lists them. Each feature's file declares its
/// entries and adds one term to ``commands`` (a test fails when a command file is left out).
enum CommandTable {
  static let version = "strata-demo 0.1.0"

  static let commands: [Command] =
    TourCommand.commands + AccountCommands.commands + UserCommands.commands
    + UserPostsCommands.commands + PostCommands.commands + TodoCommands.commands
    + SyncCommand.commands + EventsCommand.commands + SettingsCommands.commands
    + ConfigCommand.commands
    + CacheCommands.commands + DownloadCommand.commands
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
    OptionSpec(name: "config", valueName: "FILE"),
    OptionSpec(name: "api", valueName: "URL"),
    OptionSpec(name: "sandbox", valueName: nil),
    OptionSpec(name: "set", valueName: "KEY=VALUE"),
    OptionSpec(name: "log-level", valueName: "LEVEL"),
    OptionSpec(name: "json", valueName: nil),
    OptionSpec(name: "no-cache", valueName: nil),
    OptionSpec(name: "verbose", valueName: nil),
    OptionSpec(name: "http-log", valueName: "FILE"),
    OptionSpec(name: "har", valueName: "FILE"),
    OptionSpec(name: "analytics-log", valueName: "FILE"),
    OptionSpec(name: "help", valueName: nil),
    OptionSpec(name: "version", valueName: nil),
  ]

  /// `posts`, `todos`: a list from the server, or with `--local` the one the device keeps.
  static func deviceList(_ things: String, limit: Int, run: Command.Run) -> Command {
    Command(
      things,
      options: paging + [OptionSpec(name: "local", valueName: nil, help: "option.\(things).local")]
        + LocalQuery.options + [
          OptionSpec(name: "pull", valueName: nil, help: "option.pull"),
          OptionSpec(name: "follow", valueName: nil, help: "option.follow"),
        ],
      example: "strata-demo \(things) --limit \(limit)", run: run)
  }

  /// `--offline`: a change kept on this device; `verb` names how the help says it
  /// (`keep`, `keepChange`, `keepDeletion`, `flip`: the sentence `option.offline.<verb>`).
  static func offline(_ verb: String) -> OptionSpec {
    OptionSpec(name: "offline", valueName: nil, help: "option.offline." + verb)
  }

  /// `--limit` and `--skip`, for every list.
  static let paging = [
    OptionSpec(name: "limit", valueName: "N"),
    OptionSpec(name: "skip", valueName: "N"),
  ]

  /// `strata-demo [global options] COMMAND [options]`, in the user's words.
  static var usage: String { Localized.current("usage.global") }

  /// `help GROUP`: the usage and summary of each command of `group` (`post create`, …).
  static func help(group: String) -> String {
    let members = commands.filter { $0.words.count > 1 && $0.words[0] == group }
    return members.map { "\($0.usage)\n  \($0.summary)" }.joined(separator: "\n\n") + "\n"
  }

  static var help: String {
    let text = Localized.current
    let entries = commands.map { ($0.name, $0.summary) } + [("help", text("command.help"))]
    let width = entries.map(\.0.count).max() ?? 0
    let list = entries.map { name, summary in
      "  " + name + String(repeating: " ", count: width - name.count + 2) + summary
    }
    return """
      \(text("help.intro"))

      \(text("help.usage")): \(usage)

      \(text("help.commands")):
      \(list.joined(separator: "\n"))

      \(text("help.globalOptions")):
      \(OptionSpec.table(globalOptions))
      \(text("help.exitStatus"))

      """
  }
}
