/// Which levels are enabled: a global minimum and optional per-category minimums.
public struct LogThresholds: Sendable, Equatable {
  /// The minimum level for categories without their own setting.
  public var global: LogLevel
  /// Minimum levels by category name (`networking`, `auth`, …), matched case-insensitively.
  public var categories: [String: LogLevel] {
    didSet { categories = Self.lowercasedKeys(categories) }
  }

  /// - Parameter global: The default minimum level.
  /// - Parameter categories: Per-category minimums.
  public init(global: LogLevel = .info, categories: [String: LogLevel] = [:]) {
    self.global = global
    self.categories = Self.lowercasedKeys(categories)
  }

  private static func lowercasedKeys(_ levels: [String: LogLevel]) -> [String: LogLevel] {
    guard levels.keys.contains(where: { $0 != $0.lowercased() }) else { return levels }
    return Dictionary(levels.map { ($0.key.lowercased(), $0.value) }) { _, last in last }
  }

  /// Everything enabled (what tests usually capture).
  package static let all = LogThresholds(global: .trace)

  /// The minimum level for `category`.
  /// - Returns: Its own level, or the global one.
  public func level(for category: String) -> LogLevel {
    // Keys are lowercase: a lowercase category needs one lookup, and no lowercasing on the
    // way to a sink (the common case: no per-category levels at all).
    guard !categories.isEmpty else { return global }
    if let level = categories[category] { return level }
    guard category.utf8.contains(where: { (65...90).contains($0) }) else { return global }
    return categories[category.lowercased()] ?? global
  }

  /// Reads `LOG_LEVEL` and every `LOG_LEVEL_<CATEGORY>` key from configuration.
  /// - Parameter config: The configuration.
  /// - Parameter fallback: The global level when `LOG_LEVEL` is not set.
  /// - Throws: ``ConfigError`` `.invalidValue` naming the key for an unknown level name.
  package init(config: Config, fallback: LogLevel = .info) throws {
    let prefix = Config.Key.logLevel.name + "_"
    func parse(_ entry: ConfigValue) throws -> LogLevel {
      if let level = LogLevel(name: entry.value) { return level }
      let names = LogLevel.allCases.map(\.description).joined(separator: ", ")
      var location: SourceLocation?
      if case .file(let fileLocation) = entry.origin { location = fileLocation }
      throw ConfigError(
        .invalidValue(key: entry.key, expected: "a log level"), at: location,
        "\(entry.key): expected one of \(names), got '\(entry.value)'")
    }
    self.init(global: try config.value(.logLevel).map(parse) ?? fallback)
    for entry in config.entries where entry.key.hasPrefix(prefix) {
      categories[entry.key.dropFirst(prefix.count).lowercased()] = try parse(entry)
    }
  }
}
