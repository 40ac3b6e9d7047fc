/// Expands `$(NAME)` references across the merged layers, then the process environment,
/// detecting undefined names and cycles (reported with the whole chain).
struct SubstitutionResolver {
  struct Definition: Sendable {
    let segments: [ValueSegment]
    let origin: ConfigOrigin
  }

  /// Chains longer than this are almost certainly generated nonsense; stop before the stack does.
  static let maxDepth = 64
  /// The largest expanded value ("billion laughs": a few lines doubling each other).
  static let maxValueBytes = 1 << 20
  /// The most all expanded values may add up to.
  static let maxTotalBytes = 8 << 20

  let definitions: [String: Definition]
  let environment: [String: String]
  private var resolved: [String: String] = [:]
  private var totalBytes = 0

  init(definitions: [String: Definition], environment: [String: String]) {
    (self.definitions, self.environment) = (definitions, environment)
  }

  /// The fully expanded value of `key`, defined as `definition`.
  mutating func resolve(_ key: String, _ definition: Definition) throws -> String {
    try resolve(key, definition, stack: nil)
  }

  /// `stack`: the keys being expanded, outermost first, ending with `key`; nil for a key
  /// resolved on its own (the stack is built only if it has references to follow).
  private mutating func resolve(
    _ key: String, _ definition: Definition, stack: [String]?
  ) throws -> String {
    // Most values are one literal: nothing to expand, so nothing to keep for later lookups
    // either (the definition answers them as fast as `resolved` would). Its bytes count once,
    // when it is resolved on its own (every key is), as an expanded value's do when kept.
    if definition.segments.count <= 1, case .literal(let text)? = definition.segments.first {
      guard stack == nil else { return text }
      totalBytes += text.utf8.count
      guard totalBytes <= Self.maxTotalBytes else { throw totalTooLarge([key]) }
      return text
    }
    if let done = resolved[key] { return done }
    let stack = stack ?? [key]
    let value = try expand(definition.segments, stack: stack)
    totalBytes += value.utf8.count
    guard totalBytes <= Self.maxTotalBytes else { throw totalTooLarge(stack) }
    resolved[key] = value
    return value
  }

  private func totalTooLarge(_ stack: [String]) -> ConfigError {
    tooLarge(stack, "the expanded values add up to more than \(Self.maxTotalBytes >> 20) MiB")
  }

  private mutating func expand(_ segments: [ValueSegment], stack: [String]) throws -> String {
    var output = ""
    for segment in segments {
      switch segment {
      case .literal(let text):
        output += text
      case .reference(let nameSegments, let location):
        let name = try expand(nameSegments, stack: stack)
        output += try lookUp(name, at: location, stack: stack)
        guard output.utf8.count <= Self.maxValueBytes else {
          throw tooLarge(
            stack, "expands to more than \(Self.maxValueBytes >> 20) MiB", at: location)
        }
      }
    }
    return output
  }

  private func tooLarge(_ stack: [String], _ what: String, at location: SourceLocation? = nil)
    -> ConfigError
  {
    let chain = stack.prefix(8).joined(separator: " → ") + (stack.count > 8 ? " → …" : "")
    return ConfigError(
      .valueTooLarge(chain: Array(stack)),
      at: location
        ?? definitions[stack[0]].flatMap {
          if case .file(let location) = $0.origin { return location }
          return nil
        },
      "\(Config.quoted(stack[0])) \(what) (through \(chain)): substitution stops there")
  }

  private mutating func lookUp(
    _ name: String, at location: SourceLocation, stack: [String]
  ) throws -> String {
    if let start = stack.firstIndex(of: name) {
      let chain = Array(stack[start...]) + [name]
      throw ConfigError(
        .substitutionCycle(chain: chain), at: location,
        "substitution cycle: \(chain.joined(separator: " → "))")
    }
    if let definition = definitions[name] {
      guard stack.count < Self.maxDepth else {
        throw ConfigError(
          .substitutionCycle(chain: stack + [name]), at: location,
          "substitution nested more than \(Self.maxDepth) deep at '\(name)'")
      }
      return try resolve(name, definition, stack: stack + [name])
    }
    if let value = environment[name] { return value }
    throw ConfigError(
      .undefinedVariable(name: name), at: location,
      "undefined variable '\(name)': define it in the config or the environment, "
        + "or write $$ for a literal '$'")
  }
}
