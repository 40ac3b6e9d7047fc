import Foundation

// MARK: - Typed access

extension Config {
  /// The value of `key` as text.
  /// - Parameter key: The key.
  /// - Parameter defaultValue: Returned when no layer defines the key; nil makes a missing key an error.
  /// - Throws: ``ConfigError`` `.missingKey`.
  public func string(_ key: Key, default defaultValue: String? = nil) throws -> String {
    try typed(key, default: defaultValue, expected: "text") { $0 }
  }

  /// The value of `key` as an absolute URL with a scheme and a host.
  /// - Parameter key: The key.
  /// - Parameter defaultValue: Returned when no layer defines the key.
  /// - Throws: ``ConfigError`` `.missingKey` or `.invalidValue`.
  public func url(_ key: Key, default defaultValue: URL? = nil) throws -> URL {
    try typed(key, default: defaultValue, expected: "a URL with a scheme and host (https://host)") {
      guard let url = URL(string: $0), let scheme = url.scheme, !scheme.isEmpty,
        let host = url.host, !host.isEmpty
      else { return nil }
      return url
    }
  }

  /// The value of `key` as a whole number (`PAGE_SIZE = 20`), within `range` when one is given:
  /// an out-of-range value is a ``ConfigError`` naming the range. Overflow is an error.
  /// - Throws: ``ConfigError`` `.missingKey` or `.invalidValue`.
  public func int(_ key: Key, default defaultValue: Int? = nil, in range: ClosedRange<Int>? = nil)
    throws -> Int
  {
    guard let range else {
      return try typed(
        key, default: defaultValue, expected: TextGrammar.wholeNumberKind,
        parse: TextGrammar.wholeNumber)
    }
    return try typed(
      key, default: defaultValue, in: range, expected: TextGrammar.wholeNumberKind,
      parse: TextGrammar.wholeNumber)
  }

  /// The value of `key` as a duration: a non-negative number with a unit, `250ms`, `2s`,
  /// `1.5s`, `5m`, `1h` or `1d` (at most ten years); within `range` when one is given; with
  /// `step`, also a whole multiple of it (`step: .seconds(60)`: whole minutes, as an API that
  /// counts in minutes needs).
  /// - Throws: ``ConfigError`` `.missingKey` or `.invalidValue`.
  public func duration(
    _ key: Key, default defaultValue: Duration? = nil, in range: ClosedRange<Duration>? = nil,
    step: Duration? = nil
  ) throws -> Duration {
    guard range != nil || step != nil else {
      return try typed(
        key, default: defaultValue, expected: TextGrammar.durationKind,
        parse: TextGrammar.duration)
    }
    let range = range ?? .zero...Duration.seconds(TextGrammar.maxDuration)
    guard let step, step > .zero else {
      // Only examples the range accepts: "such as 250ms" for a 1s minimum misleads.
      let candidates: [Duration] = [
        .milliseconds(250), .seconds(2), .seconds(30), .seconds(300), .seconds(3_600),
        .seconds(86_400),
      ]
      let examples = candidates.filter(range.contains).prefix(3).map(TextGrammar.written)
      return try typed(
        key, default: defaultValue, in: range, expected: "a duration", shown: TextGrammar.written,
        examples: examples.isEmpty
          ? nil
          : examples.dropLast().joined(separator: ", ")
            + (examples.count > 1 ? " or " : "") + (examples.last ?? ""),
        parse: TextGrammar.duration)
    }
    // "whole minutes from 1m to 43200m": bounds in the step's unit where it has one.
    let units: [(Duration, String, String)] = [
      (.milliseconds(1), "milliseconds", "ms"), (.seconds(1), "seconds", "s"),
      (.seconds(60), "minutes", "m"), (.seconds(3600), "hours", "h"),
      (.seconds(86_400), "days", "d"),
    ]
    let unit = units.first { $0.0 == step }
    return try typed(
      key, default: defaultValue, in: range,
      expected: unit.map { "whole \($0.1)" } ?? "a whole multiple of \(step.shortDescription)",
      shown: { value in
        unit.map { "\(Int((value / $0.0).rounded()))\($0.2)" } ?? value.shortDescription
      },
      examples: unit.map { "30\($0.2)" },
      parse: { text in
        TextGrammar.duration(text).flatMap { value in
          let steps = value / step
          return steps == steps.rounded() ? value : nil
        }
      })
  }

  /// The value of `key` as a finite decimal number (`SAMPLE_RATE = 0.25`, `1e-3`), within
  /// `range` when one is given. Hexadecimal, `inf` and `nan` are errors, as is a value too
  /// large for a `Double`.
  /// - Throws: ``ConfigError`` `.missingKey` or `.invalidValue`.
  public func double(
    _ key: Key, default defaultValue: Double? = nil, in range: ClosedRange<Double>? = nil
  ) throws -> Double {
    guard let range else {
      return try typed(
        key, default: defaultValue, expected: TextGrammar.numberKind, parse: TextGrammar.number)
    }
    return try typed(
      key, default: defaultValue, in: range, expected: TextGrammar.numberKind,
      parse: TextGrammar.number)
  }

  /// The value of `key` as a flag: `YES`/`NO`, `true`/`false`, `on`/`off`, `1`/`0` (any
  /// letter case), as a preference reads one.
  /// - Parameter key: The key.
  /// - Parameter defaultValue: Returned when no layer defines the key.
  /// - Throws: ``ConfigError`` `.missingKey` or `.invalidValue`.
  public func bool(_ key: Key, default defaultValue: Bool? = nil) throws -> Bool {
    try typed(key, default: defaultValue, expected: TextGrammar.flagKind, parse: TextGrammar.flag)
  }

  /// The value of `key` as a size in bytes: a whole number with an optional unit, `65536`,
  /// `64KiB`, `10MiB`, `1GiB` (`KB`, `MB`, `GB` are powers of 1000). Overflow is an error.
  /// - Throws: ``ConfigError`` `.missingKey` or `.invalidValue`.
  public func byteCount(
    _ key: Key, default defaultValue: Int? = nil, in range: ClosedRange<Int> = 0...Int.max
  ) throws -> Int {
    try typed(
      key, default: defaultValue, in: range, expected: "a size in bytes",
      examples: "65536, 64KiB or 10MiB", parse: Self.parseByteCount)
  }

  /// Parses `512`, `64KiB`, `10MiB`, `1GB`, …; nil for anything else or an overflow.
  static func parseByteCount(_ text: String) -> Int? {
    let units: [(suffix: String, factor: Int)] = [
      ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("KB", 1_000), ("MB", 1_000_000),
      ("GB", 1_000_000_000), ("B", 1),
    ]
    let unit = units.first { text.hasSuffix($0.suffix) } ?? ("", 1)
    let number = text.dropLast(unit.suffix.count)
    guard let amount = number.plainInteger else { return nil }
    let (bytes, overflow) = amount.multipliedReportingOverflow(by: unit.factor)
    return overflow ? nil : bytes
  }

  /// ``typed(_:default:expected:parse:)`` for a value that must also lie in `range`; the
  /// message names the range (and examples, if given).
  private func typed<T: Comparable>(
    _ key: Key, default defaultValue: T?, in range: ClosedRange<T>, expected: String,
    shown: (T) -> String = { "\($0)" }, examples: String? = nil, parse: (String) -> T?
  ) throws -> T {
    let bounds = "from \(shown(range.lowerBound)) to \(shown(range.upperBound))"
    return try typed(
      key, default: defaultValue,
      expected: "\(expected) \(bounds)" + (examples.map { ", such as \($0)" } ?? "")
    ) {
      parse($0).flatMap { range.contains($0) ? $0 : nil }
    }
  }

  private func typed<T>(
    _ key: Key, default defaultValue: T?, expected: String, parse: (String) -> T?
  ) throws -> T {
    guard let entry = values[key.name] else {
      if let defaultValue { return defaultValue }
      throw missing(key)
    }
    if let parsed = parse(entry.value) { return parsed }
    let shown = entry.isSecret || key.isSecret ? Redactor.placeholder : Self.quoted(entry.value)
    let location: SourceLocation?
    let source: String
    switch entry.origin {
    case .file(let fileLocation):
      location = fileLocation
      source = ""
    default:
      location = nil
      source = " (from \(entry.origin))"
    }
    throw ConfigError(
      .invalidValue(key: key.name, expected: expected), at: location,
      "\(key.name)\(source): expected \(expected), got \(shown)")
  }

  /// `'value'`, shortened (``TextGrammar/quoted(_:)``).
  static func quoted(_ value: String) -> String { TextGrammar.quoted(value) }

  private func missing(_ key: Key) -> ConfigError {
    let destination = file.map { "define it in \($0)" } ?? "define it in a config file (--config)"
    return ConfigError(
      .missingKey(key: key.name), at: nil,
      "missing configuration key '\(key.name)': \(destination), pass --set \(key.name)=…, "
        + "or set \(environmentPrefix)\(key.name)")
  }
}
