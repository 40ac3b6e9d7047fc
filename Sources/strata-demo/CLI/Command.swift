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
  let summary: String
  let positionals: [String]
  let options: [OptionSpec]
  let example: String
  /// The feature the command belongs to: turned off, the command exits 78 saying so.
  let feature: Feature?
  let run: Run

  init(
    _ name: String, summary: String, positionals: [String] = [], options: [OptionSpec] = [],
    example: String, feature: Feature? = nil, run: Run
  ) {
    self.words = name.split(separator: " ").map(String.init)
    self.summary = summary
    self.positionals = positionals
    self.options = options
    self.example = example
    self.feature = feature
    self.run = run
  }

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
    text += "\nGlobal options:\n" + OptionSpec.table(CommandTable.globalOptions)
    text += "\nExample:\n  \(example)\n"
    return text
  }
}

/// One option of a command (or a global one).
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
