import DemoKit

/// One entry of the command table: its name, what it takes, how it runs and what it shows.
/// Dispatch, `--help` and the tests all read the same table (``CommandTable``).
struct Command: Sendable {
  /// How a command runs.
  enum Run: Sendable {
    /// Needs nothing but its arguments (`config show`, `sandbox serve`, `tour`).
    case standalone(@MainActor @Sendable (Invocation) async throws -> Output)
    /// Runs in an ``AppContext``: configuration, logging and the container (and the embedded
    /// sandbox when `API` is `sandbox`).
    case inApp(@MainActor @Sendable (AppContext, Invocation) async throws -> Output)
  }

  let words: [String]
  let positionals: [String]
  let options: [OptionSpec]
  let example: String
  /// The feature the command belongs to: turned off, the command exits 78 saying so.
  let feature: Feature?
  /// Whether `--json` makes it print JSON; a command that narrates (`tour`) or serves
  /// (`sandbox serve`) refuses `--json` with exit 2 rather than print text where a program
  /// expects JSON.
  let printsJSON: Bool
  let run: Run

  init(
    _ name: String, positionals: [String] = [], options: [OptionSpec] = [],
    example: String, feature: Feature? = nil, printsJSON: Bool = true, run: Run
  ) {
    self.printsJSON = printsJSON
    self.words = name.split(separator: " ").map(String.init)
    self.positionals = positionals
    self.options = options
    self.example = example
    self.feature = feature
    self.run = run
  }

  var name: String { words.joined(separator: " ") }

  /// What the command does, in the user's language: the sentence `command.<words>`.
  var summary: String { Localized.current("command." + words.joined(separator: ".")) }

  var usage: String {
    let positional = positionals.map { " \($0)" }.joined()
    let options = self.options.map { " [--\($0.name)\($0.valueName.map { " \($0)" } ?? "")]" }
      .joined()
    return "strata-demo \(name)" + Localized.current.placeholder(positional + options)
  }

  var help: String {
    let text = Localized.current
    var help = "\(summary)\n\n\(text("help.usage")): \(usage)\n"
    if !options.isEmpty {
      help += "\n\(text("help.options")):\n" + OptionSpec.table(options)
    }
    help += "\n\(text("help.globalOptions")):\n" + OptionSpec.table(CommandTable.globalOptions)
    help += "\n\(text("help.example")):\n  \(example)\n"
    return help
  }
}

/// One option of a command (or a global one).
struct OptionSpec: Sendable {
  let name: String
  let valueName: String?
  /// A flag that may narrow itself with `--name=VALUE` (`--retry-failed=ID`): the value is
  /// taken only after `=`, so the flag alone never eats the next word.
  let inlineValueName: String?
  /// The key of its help sentence: `option.<name>` unless the command says otherwise (`--text`
  /// means one thing to `todo add` and another to `todo edit`).
  let helpKey: String
  /// What fills the help sentence's placeholders (`{actions}`).
  let helpArguments: [String: String]

  init(
    name: String, valueName: String?, inlineValueName: String? = nil, help helpKey: String? = nil,
    helpArguments: [String: String] = [:]
  ) {
    (self.name, self.valueName, self.inlineValueName) = (name, valueName, inlineValueName)
    self.helpKey = helpKey ?? "option." + name
    self.helpArguments = helpArguments
  }

  var help: String { Localized.current(helpKey, helpArguments) }

  static func table(_ options: [OptionSpec]) -> String {
    let labels = options.map {
      Localized.current.placeholder(
        "--\($0.name)\($0.valueName.map { " \($0)" } ?? $0.inlineValueName.map { "[=\($0)]" } ?? "")"
      )
    }
    let width = labels.map(\.count).max() ?? 0
    return zip(labels, options).map { label, option in
      "  " + label + String(repeating: " ", count: width - label.count + 2) + option.help + "\n"
    }.joined()
  }
}
