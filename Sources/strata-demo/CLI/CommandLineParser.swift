import DemoKit
import Foundation
import Strata

/// A parsed command line.
struct Invocation: Sendable {
  var command: Command?
  var positionals: [String] = []
  /// Every value given for each command option, in order (most options take the last).
  var options: [String: [String]] = [:]
  var configPath: String?
  var api: String?
  var sandbox = false
  var sets: [(key: String, value: String)] = []
  var logLevel: String?
  var httpLog: String?
  /// `--har FILE`: every attempt as an HTTP Archive.
  var har: String?
  var analyticsLog: String?
  var json = false
  var verbose = false
  /// `--no-cache`: reads skip the HTTP cache.
  var noCache = false
  var help = false
  /// `help post`: the commands of a group that has no command of its own.
  var helpGroup: String?
  var version = false

  func option(_ name: String) -> String? { options[name]?.last }

  func values(_ name: String) -> [String] { options[name] ?? [] }

  /// ASCII digits only, within `Int` (no sign, spaces or other scripts' digits: `Int("+5")` and
  /// `Int("٥")` would not be what a person meant); nil for anything else.
  static func wholeNumber(_ text: String) -> Int? {
    guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
    return Int(text)
  }

  /// An option that must be a whole number in `range`.
  func integer(_ name: String, default value: Int, in range: ClosedRange<Int> = 0...1_000_000)
    throws -> Int
  {
    guard let text = option(name) else { return value }
    guard let number = Self.wholeNumber(text), range.contains(number) else {
      throw UsageError(
        Localized.current(
          "usage.wholeNumber",
          [
            "option": name, "from": String(range.lowerBound), "to": String(range.upperBound),
            "got": Self.quoted(text),
          ]), command)
    }
    return number
  }

  /// `--limit` (1…1000, default `limit`) and `--skip` (default 0).
  func paging(limit: Int) throws -> (limit: Int, skip: Int) {
    (try integer("limit", default: limit, in: 1...1000), try integer("skip", default: 0))
  }

  /// `'text'` (or the bare text), at most 40 characters of it: a usage error never
  /// repeats a huge argument.
  static func quoted(_ text: String, bare: Bool = false) -> String {
    let shown = text.count <= 40 ? text : text.prefix(37) + "…"
    return bare ? shown : "'\(shown)'"
  }

  /// The positional `ID` as a positive number.
  func identifier() throws -> Int {
    guard let text = positionals.first, let id = Self.wholeNumber(text), id > 0 else {
      throw UsageError(
        Localized.current("usage.id", ["got": Self.quoted(positionals.first ?? "")]), command)
    }
    return id
  }
}

extension Invocation {
  /// The positional `ID`: a server id (a positive number) or a local one (eight hex digits,
  /// as `post create --offline` prints them).
  func itemID() throws -> ItemID {
    guard let text = positionals.first, let id = ItemID(text) else {
      throw UsageError(
        Localized.current("usage.itemID", ["got": Self.quoted(positionals.first ?? "")]), command)
    }
    return id
  }
}

/// A command line that cannot be run: printed with the usage, exit status 2.
struct UsageError: Error {
  let message: String
  let command: Command?
  /// About a global option: the global usage is shown, whatever the command.
  var isGlobal = false
  init(_ message: String, _ command: Command?) {
    (self.message, self.command) = (message, command)
  }

  static func global(_ message: String) -> UsageError {
    var error = UsageError(message, nil)
    error.isGlobal = true
    return error
  }
}

/// Hand-rolled parsing: subcommands (one or two words), `--flag value` and `--flag=value`,
/// global options anywhere, `--` ends options.
enum CommandLineParser {
  static func parse(_ arguments: [String]) throws -> Invocation {
    var invocation = Invocation()
    var words: [String] = []
    // Each with the spelling typed (`-x`, `--bogus`), for the message naming one unknown.
    var commandOptions: [(name: String, value: String?, typed: String)] = []
    var index = 0
    let valueOptions = Set(
      (CommandTable.globalOptions + CommandTable.commands.flatMap(\.options)).filter {
        $0.valueName != nil
      }.map(\.name))

    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        words += arguments[index...]
        break
      }
      guard argument.hasPrefix("-"), argument.count > 1, Int(argument) == nil else {
        words.append(argument)
        continue
      }
      var name = String(argument.drop { $0 == "-" })
      var value: String?
      if let equals = name.firstIndex(of: "=") {
        value = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      if argument == "-h" { name = "help" }
      if argument == "-v" { name = "verbose" }
      if valueOptions.contains(name), value == nil {
        guard index < arguments.count, !arguments[index].hasPrefix("--") else {
          // The usage shown is the command's, when the words so far name one and the option
          // is its own.
          let message = Localized.current(
            "usage.needsValue", ["option": Invocation.quoted(name, bare: true)])
          guard !CommandTable.globalOptions.contains(where: { $0.name == name }) else {
            throw UsageError.global(message)
          }
          throw UsageError(message, CommandTable.command(startingWith: words))
        }
        value = arguments[index]
        index += 1
      }
      if try !applyGlobal(name, value, to: &invocation) {
        let typed = String(argument.prefix { $0 == "-" }) + name
        commandOptions.append((name, value, typed))
      }
    }

    // `help [COMMAND]` is `[COMMAND] --help`.
    if words.first == "help" {
      words.removeFirst()
      invocation.help = true
    }
    if invocation.help, words.count == 1, CommandTable.command(startingWith: words) == nil,
      CommandTable.commands.contains(where: { $0.words.count > 1 && $0.words[0] == words[0] })
    {
      invocation.helpGroup = words[0]
      return invocation
    }
    guard let command = try command(for: words, invocation) else { return invocation }
    invocation.command = command
    if invocation.help { return invocation }
    try apply(commandOptions, of: command, to: &invocation)
    invocation.positionals = Array(words.dropFirst(command.words.count))
    // `[NAME]`: an optional last argument.
    let required = command.positionals.filter { !$0.hasPrefix("[") }.count
    let given = invocation.positionals
    if given.count < required {
      throw UsageError(
        Localized.current(
          "usage.missingArguments",
          [
            "command": command.name,
            "missing": Localized.current.placeholder(
              command.positionals[given.count..<required].joined(separator: " ")),
          ]), command)
    }
    if given.count > command.positionals.count {
      let expected =
        command.positionals.isEmpty
        ? Localized.current("usage.noArguments") : command.positionals.joined(separator: " ")
      throw UsageError(
        Localized.current(
          "usage.arguments",
          [
            "command": command.name, "expected": expected,
            "got": Invocation.quoted(given[command.positionals.count]),
          ]), command)
    }
    return invocation
  }

  /// Sets a global option; false when `name` is not one (a command's option, checked later).
  private static func applyGlobal(_ name: String, _ value: String?, to invocation: inout Invocation)
    throws -> Bool
  {
    switch name {
    case "config": invocation.configPath = value
    case "api":
      if let value, value != "sandbox" {
        let url = URL(string: value)
        guard let scheme = url?.scheme?.lowercased(), scheme == "http" || scheme == "https",
          url?.host?.isEmpty == false
        else {
          throw UsageError.global(
            Localized.current("usage.api", ["got": Invocation.quoted(value)]))
        }
      }
      invocation.api = value
    case "log-level": invocation.logLevel = value
    case "http-log": invocation.httpLog = value
    case "har": invocation.har = value
    case "analytics-log": invocation.analyticsLog = value
    case "set":
      guard let value, let equals = value.firstIndex(of: "="), equals != value.startIndex else {
        throw UsageError(
          Localized.current("usage.set", ["got": Invocation.quoted(value ?? "")]), nil)
      }
      invocation.sets.append(
        (String(value[..<equals]), String(value[value.index(after: equals)...])))
    case "sandbox", "json", "help", "version", "verbose", "no-cache":
      guard value == nil else {
        throw UsageError.global(Localized.current("usage.noValue", ["option": name]))
      }
      switch name {
      case "sandbox": invocation.sandbox = true
      case "json": invocation.json = true
      case "verbose": invocation.verbose = true
      case "no-cache": invocation.noCache = true
      case "help": invocation.help = true
      default: invocation.version = true
      }
    default:
      return false
    }
    return true
  }

  /// The command `words` name; nil when there is none and only --help or --version was asked.
  private static func command(for words: [String], _ invocation: Invocation) throws -> Command? {
    guard let command = CommandTable.command(startingWith: words) else {
      if words.isEmpty, invocation.help || invocation.version { return nil }
      if let first = words.first {
        let known = CommandTable.commands.filter { $0.words[0] == first }
        if !known.isEmpty, words.count > 1 {
          throw UsageError(
            Localized.current(
              "usage.unknownSubcommand",
              [
                "command": first, "got": Invocation.quoted(words[1]),
                "known": known.filter { $0.words.count > 1 }.map(\.name).joined(separator: ", "),
              ]), nil)
        }
        if !known.isEmpty, known.allSatisfy({ $0.words.count > 1 }) {
          throw UsageError(
            Localized.current(
              "usage.subcommand",
              ["command": first, "known": known.map(\.name).joined(separator: ", ")]), nil)
        }
        throw UsageError(
          Localized.current("usage.unknownCommand", ["got": Invocation.quoted(first)]), nil)
      }
      throw UsageError(Localized.current("usage.missingCommand"), nil)
    }
    return command
  }

  private static func apply(
    _ commandOptions: [(name: String, value: String?, typed: String)], of command: Command,
    to invocation: inout Invocation
  ) throws {
    // Options first: a mistyped option's value (`--limt 3`) would otherwise be reported as
    // an extra argument.
    for option in commandOptions {
      guard let spec = command.options.first(where: { $0.name == option.name }) else {
        throw UsageError(
          Localized.current(
            "usage.unknownOption",
            ["option": Invocation.quoted(option.typed, bare: true), "command": command.name]),
          command)
      }
      if spec.valueName == nil {  // a flag, perhaps narrowed by `=VALUE`
        guard option.value == nil || spec.inlineValueName != nil else {
          throw UsageError(Localized.current("usage.noValue", ["option": option.name]), command)
        }
        invocation.options[option.name, default: []].append(option.value ?? "")
        continue
      }
      guard let value = option.value else {
        throw UsageError(
          Localized.current("usage.needsValue", ["option": option.name]), command)
      }
      invocation.options[option.name, default: []].append(value)
    }
  }
}
