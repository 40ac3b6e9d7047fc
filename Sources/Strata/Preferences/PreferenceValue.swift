import Foundation

/// A type a user's setting can have: written as text (in the file and on a command line) and
/// read back exactly by its ``textFormat``, with a clear refusal for text that is not one.
/// Flags, numbers and durations read as ``Config`` reads them.
public protocol PreferenceValue: Sendable, Equatable {
  /// How the value is written as text and read back.
  static var textFormat: TextFormat<Self> { get }
}

extension Bool: PreferenceValue {
  /// `true`/`false`, also `yes`/`no`, `on`/`off`, `1`/`0`; kept as `true` or `false`.
  public static var textFormat: TextFormat<Bool> {
    TextFormat(kind: TextGrammar.flagKind, parse: TextGrammar.flag) { $0 ? "true" : "false" }
  }
}

extension Int: PreferenceValue {
  /// Digits with an optional sign, in range of `Int` (no trap on an overflowing value).
  public static var textFormat: TextFormat<Int> {
    TextFormat(kind: TextGrammar.wholeNumberKind, parse: TextGrammar.wholeNumber) { String($0) }
  }
}

extension Double: PreferenceValue {
  /// A finite decimal number.
  public static var textFormat: TextFormat<Double> {
    TextFormat(kind: TextGrammar.numberKind, parse: TextGrammar.number) { String($0) }
  }
}

extension String: PreferenceValue {
  public static var textFormat: TextFormat<String> {
    TextFormat(kind: "text", parse: { $0 }, text: { $0 })
  }
}

extension Duration: PreferenceValue {
  /// `250ms`, `1.5s`, `5m`, `2h`, `1d`, kept in the largest whole unit (`90s`).
  public static var textFormat: TextFormat<Duration> {
    TextFormat(
      kind: TextGrammar.durationKind, parse: TextGrammar.duration, text: TextGrammar.written)
  }
}

/// An enumeration whose raw values are its text: declare the conformance, nothing more.
/// ```swift
/// enum Theme: String, CaseIterable, PreferenceValue { case light, dark, system }
/// ```
extension PreferenceValue
where Self: RawRepresentable, Self.RawValue == String, Self: CaseIterable {
  public static var textFormat: TextFormat<Self> {
    TextFormat(kind: "one of " + allCases.map(\.rawValue).joined(separator: ", ")) {
      Self(rawValue: $0)
    } text: {
      $0.rawValue
    }
  }
}
