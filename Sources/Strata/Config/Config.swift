import Foundation

/// Layered, typed application configuration read from xcconfig-style files.
///
/// Layers, highest precedence first: explicit overrides (the CLI's `--set KEY=VALUE`),
/// environment variables `STRATA_<KEY>`, the file and its includes, defaults in code.
/// `$(KEY)` / `${KEY}` references are resolved across all layers, then against the process
/// environment, when the configuration is loaded, so every error surfaces at start-up with a
/// file, line and column. Every value remembers its origin for `config show`.
public struct Config: Sendable, CustomStringConvertible {
  /// Every resolved entry, by key.
  package private(set) var values: [String: ConfigValue]
  /// Keys defined more than once in the file(s); the later definition won.
  public let duplicates: [ConfigDuplicate]
  /// Optional includes that were not found (skipped, not an error): where each directive is.
  public let skippedIncludes: [SourceLocation]
  /// The top-level file, if one was read; named in "missing key" errors.
  package let file: String?
  /// The prefix of environment variables that override keys (`STRATA_`).
  package let environmentPrefix: String

  // MARK: Loading

  /// Loads configuration from a file (optional) plus the other layers.
  /// - Parameter file: Path of the xcconfig file to read, or nil for no file layer.
  /// - Parameter environment: The process environment: `STRATA_<KEY>` variables override keys, and
  ///   every variable is available to `$(NAME)` substitution.
  /// - Parameter environmentPrefix: The prefix marking override variables.
  /// - Parameter overrides: Explicit overrides (highest precedence), e.g. from `--set`.
  /// - Parameter defaults: Values used when no other layer defines a key.
  /// - Parameter secrets: Keys whose values are secrets though their names do not say so
  ///   (a name holding `TOKEN`, `SECRET`, `PASSWORD` or `KEY` does): shown as `<redacted>`
  ///   and masked in logs.
  /// - Throws: ``ConfigError`` with file, line and column for any syntax,
  ///   include or substitution problem.
  public init(
    file: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    environmentPrefix: String = "STRATA_",
    overrides: [Key: String] = [:],
    defaults: [Key: String] = [:],
    secrets: Set<Key> = []
  ) throws {
    var parser = ConfigParser()
    let assignments = try file.map { try parser.parse(fileAt: $0) } ?? []
    try self.init(
      assignments: assignments, skippedIncludes: parser.skippedIncludes, file: file,
      environment: environment, environmentPrefix: environmentPrefix, overrides: overrides,
      defaults: defaults, secrets: secrets)
  }

  /// Parses configuration text held in memory (handy in tests and for embedded defaults).
  /// - Parameter text: The xcconfig-style text.
  /// - Parameter name: The name used in locations; includes resolve relative to its directory.
  /// - Parameter environment: See ``init(file:environment:environmentPrefix:overrides:defaults:secrets:)``.
  /// - Parameter overrides: Explicit overrides (highest precedence).
  /// - Parameter defaults: Values used when no other layer defines a key.
  /// - Parameter secrets: Keys whose values are secrets though their names do not say so.
  public init(
    parsing text: String,
    name: String = "<string>",
    environment: [String: String] = [:],
    overrides: [Key: String] = [:],
    defaults: [Key: String] = [:],
    secrets: Set<Key> = []
  ) throws {
    var parser = ConfigParser()
    let assignments = try parser.parse(text: text, name: name)
    try self.init(
      assignments: assignments, skippedIncludes: parser.skippedIncludes, file: name,
      environment: environment, environmentPrefix: "STRATA_", overrides: overrides,
      defaults: defaults, secrets: secrets)
  }

  private init(
    assignments: [ConfigAssignment], skippedIncludes: [SourceLocation], file: String?,
    environment: [String: String], environmentPrefix: String, overrides: [Key: String],
    defaults: [Key: String], secrets: Set<Key>
  ) throws {
    var definitions: [String: SubstitutionResolver.Definition] = [:]
    definitions.reserveCapacity(defaults.count + assignments.count + overrides.count)
    // Each key once, in the order it was first defined (defaults by name, then the files
    // top to bottom, …): values are resolved in this order, so the first error reported is
    // the same on every run, without sorting every key.
    var order: [String] = []
    order.reserveCapacity(definitions.capacity)
    func define(_ key: String, _ definition: SubstitutionResolver.Definition)
      -> SubstitutionResolver.Definition?
    {
      let replaced = definitions.updateValue(definition, forKey: key)
      if replaced == nil { order.append(key) }
      return replaced
    }
    for (key, value) in defaults.sorted(by: { $0.key.name < $1.key.name }) {
      _ = define(key.name, .init(segments: [.literal(value)], origin: .defaults))
    }
    var duplicates: [ConfigDuplicate] = []
    for assignment in assignments {
      let replaced = define(
        assignment.key, .init(segments: assignment.segments, origin: .file(assignment.location)))
      if case .file(let previous)? = replaced?.origin {
        duplicates.append(
          ConfigDuplicate(key: assignment.key, previous: previous, winner: assignment.location))
      }
    }
    for (variable, value) in environment.sorted(by: { $0.key < $1.key })
    where variable.hasPrefix(environmentPrefix) {
      let key = String(variable.dropFirst(environmentPrefix.count))
      guard Self.isValidKey(key) else { continue }
      _ = define(key, .init(segments: [.literal(value)], origin: .environment(variable: variable)))
    }
    for (key, value) in overrides.sorted(by: { $0.key.name < $1.key.name }) {
      _ = define(
        key.name,
        .init(segments: try Self.parseOverride(key: key.name, value: value), origin: .override))
    }

    values = try Self.resolve(
      definitions, in: order, environment: environment, secrets: Set(secrets.map(\.name)))
    (self.duplicates, self.skippedIncludes) = (duplicates, skippedIncludes)
    (self.file, self.environmentPrefix) = (file, environmentPrefix)
  }

  /// Every definition with its substitutions done. Secret values are masked by value from
  /// then on, wherever they turn up; a setting under a name that only looks secret
  /// (`TOKEN_STORE = keychain`, `TOKEN_LIFETIME = 30m`: ``Key/isSetting(_:under:)``) is not a
  /// secret, and is shown.
  private static func resolve(
    _ definitions: [String: SubstitutionResolver.Definition], in order: [String],
    environment: [String: String], secrets: Set<String>
  ) throws -> [String: ConfigValue] {
    var resolver = SubstitutionResolver(definitions: definitions, environment: environment)
    var values: [String: ConfigValue] = [:]
    values.reserveCapacity(definitions.count)
    var secretValues: [String?] = []
    for key in order {
      guard let definition = definitions[key] else { continue }
      let value = try resolver.resolve(key, definition)
      let isSecret =
        secrets.contains(key) || (Key.nameLooksSecret(key) && !Key.isSetting(value, under: key))
      values[key] = ConfigValue(
        key: key, value: value, origin: definition.origin, isSecret: isSecret)
      // Masked in text only from 8 bytes: a shorter secret (`none`) would mangle every
      // sentence that holds the word; it is still `<redacted>` where it is shown.
      if isSecret && value.utf8.count >= 8 { secretValues.append(value) }
      if mayHoldURLPassword(value) { secretValues.append(URLComponents(string: value)?.password) }
    }
    KnownSecrets.register(secretValues)
    return values
  }

  /// Whether `value` holds an `@`, as `user:password@host` does. On the bytes at once: a
  /// scan through `String.UTF8View`'s iterator was the dearest step of a large file's load.
  private static func mayHoldURLPassword(_ value: String) -> Bool {
    var value = value
    return value.withUTF8 { bytes in
      bytes.baseAddress.map { memchr($0, Int32(UInt8(ascii: "@")), bytes.count) != nil } ?? false
    }
  }

  /// `--set` values accept the same syntax as a file value (quotes, `$(KEY)`).
  private static func parseOverride(key: String, value: String) throws -> [ValueSegment] {
    let label = "--set \(key)"
    guard isValidKey(key) else {
      throw ConfigError(
        .invalidKey, at: SourceLocation(file: label, line: 1, column: 1),
        "invalid key \(Self.quoted(key)) in --set: keys are letters, digits and '_', not starting with a digit"
      )
    }
    var scanner = LineScanner(Array(value.utf8)[...], file: label, line: 1)
    // The value reads as it would after `KEY =` in a file: spaces around it are dropped at
    // both ends (` NO` and `NO ` are both NO); quotes keep them.
    scanner.skipWhitespace()
    return try scanner.scanValue()
  }

  static func isValidKey(_ name: String) -> Bool {
    var scalars = name.unicodeScalars.makeIterator()
    guard let first = scalars.next(), LineScanner.isIdentifierStart(first) else { return false }
    while let scalar = scalars.next() {
      guard LineScanner.isIdentifierBody(scalar) else { return false }
    }
    return true
  }

  // MARK: Inspection

  /// The entry for `key`, if any layer defines it.
  /// - Parameter key: The key to look up.
  /// - Returns: The resolved value with its origin, or nil.
  public func value(_ key: Key) -> ConfigValue? { values[key.name] }

  /// Every entry, sorted by key (for `config show`).
  public var entries: [ConfigValue] { values.values.sorted { $0.key < $1.key } }

  /// One `KEY = value (origin)` line per entry, secrets shown as `<redacted>`.
  public var description: String { entries.map(\.description).joined(separator: "\n") }
}
