/// How a value is written as text and read back — the one grammar of text values: ``Config``'s
/// typed getters and every ``PreferenceValue`` read durations, flags and numbers alike, and
/// refuse them in the same sentence (`NAME: expected KIND, got 'TEXT'`).
/// ```swift
/// extension Percent: PreferenceValue {
///   static var textFormat: TextFormat<Percent> {
///     TextFormat(kind: "a percentage (25%)") {
///       Percent(text: $0)
///     } text: {
///       "\($0.value)%"
///     }
///   }
/// }
/// ```
public struct TextFormat<Value>: Sendable {
  /// What text is accepted, said to a person (`a whole number`, `true or false`).
  public let kind: String
  private let read: @Sendable (String) -> Value?
  private let write: @Sendable (Value) -> String

  /// A format accepting what `parse` reads (nil: not one), written back by `text`, which must
  /// give text `parse` reads as the same value.
  public init(
    kind: String, parse: @escaping @Sendable (String) -> Value?,
    text: @escaping @Sendable (Value) -> String
  ) {
    (self.kind, read, write) = (kind, parse, text)
  }

  /// The value `text` says, or nil.
  public func parse(_ text: String) -> Value? { read(text) }
  /// The value as text.
  public func text(_ value: Value) -> String { write(value) }
}

/// The grammar's pieces, shared by ``Config`` and the ``PreferenceValue`` conformances.
enum TextGrammar {
  static let flagKind = "true or false (or yes/no, on/off, 1/0)"
  static let wholeNumberKind = "a whole number"
  static let numberKind = "a number"
  static let durationKind = "a duration such as 250ms, 2s, 1.5s or 5m"

  /// `true`/`false`, `yes`/`no`, `on`/`off`, `1`/`0`, in any letter case.
  static func flag(_ text: String) -> Bool? {
    switch text.lowercased() {
    case "true", "yes", "on", "1": true
    case "false", "no", "off", "0": false
    default: nil
    }
  }

  /// Digits with an optional sign, within `Int` (an overflowing value is nil, never a trap).
  static func wholeNumber(_ text: String) -> Int? { text.count <= 40 ? Int(text) : nil }

  /// A finite decimal number (`0.25`, `1e-3`); hexadecimal, `inf`, `nan` and a value too
  /// large for a `Double` are nil.
  static func number(_ text: String) -> Double? {
    guard text.count <= 40, text.utf8.allSatisfy({ "0123456789+-.eE".utf8.contains($0) }) else {
      return nil
    }
    return Double(text).flatMap { $0.isFinite ? $0 : nil }
  }

  /// The longest duration accepted: 10 years (longer is a typo, and would overflow timers).
  static let maxDuration: Double = 10 * 365 * 24 * 3600

  /// `250ms`, `2s`, `1.5s`, `5m`, `1h` or `1d` up to ``maxDuration``, exactly: a duration is a
  /// whole number of milliseconds, so `1.5ms` or `86400.0000001s` (which rounding would turn
  /// into a value a range accepts) is nil, as is anything else.
  static func duration(_ text: String) -> Duration? {
    let units: [(suffix: String, milliseconds: Int)] = [
      ("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
    ]
    guard let unit = units.first(where: { text.hasSuffix($0.suffix) }) else { return nil }
    let number = text.dropLast(unit.suffix.count)
    let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let fraction = parts.count == 2 ? parts[1] : ""
    guard let whole = parts[0].isEmpty && !fraction.isEmpty ? 0 : parts[0].plainInteger,
      parts.count == 1 || (fraction.plainInteger != nil && fraction.count <= 9)
    else { return nil }
    // whole × unit + fraction × unit / 10^digits, each step checked for overflow and the
    // last for a remainder (a part of a millisecond).
    let scale = (0..<fraction.count).reduce(1) { total, _ in total * 10 }
    let (wholeMilliseconds, overflow) = whole.multipliedReportingOverflow(by: unit.milliseconds)
    let (scaled, fractionOverflow) = (fraction.plainInteger ?? 0)
      .multipliedReportingOverflow(by: unit.milliseconds)
    guard !overflow, !fractionOverflow, scaled % scale == 0 else { return nil }
    let (milliseconds, sumOverflow) = wholeMilliseconds.addingReportingOverflow(scaled / scale)
    guard !sumOverflow, Double(milliseconds) <= maxDuration * 1_000 else { return nil }
    return .milliseconds(milliseconds)
  }

  /// `duration` as a config file would write it: in the largest unit it is a whole number of
  /// (`1d`, `90s`, `1500ms`), so it can be copied into a file or a setting as it is.
  static func written(_ duration: Duration) -> String {
    let (seconds, overflow) = duration.components.seconds.multipliedReportingOverflow(by: 1_000)
    guard !overflow else { return duration.shortDescription }
    let milliseconds = seconds + duration.components.attoseconds / 1_000_000_000_000_000
    for (unit, suffix) in [(86_400_000, "d"), (3_600_000, "h"), (60_000, "m"), (1_000, "s")]
    where milliseconds != 0 && milliseconds % Int64(unit) == 0 {
      return "\(milliseconds / Int64(unit))\(suffix)"
    }
    return "\(milliseconds)ms"
  }

  /// The one refusal sentence: `NAME: expected KIND, got 'TEXT'` (the text shortened).
  static func refusal(_ name: String, expected: String, got text: String) -> String {
    "\(name): expected \(expected), got \(quoted(text))"
  }

  /// `'value'`, at most 80 characters of it: an error message never repeats a huge input.
  static func quoted(_ value: String) -> String {
    value.count <= 80 ? "'\(value)'" : "'\(value.prefix(77))…' (\(value.count) characters)"
  }
}
