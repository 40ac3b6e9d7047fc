import Foundation

/// A type a user's setting can have: written as text (in the file and on a command line) and
/// read back exactly, with a clear refusal for text that is not one.
public protocol PreferenceValue: Sendable, Equatable {
  /// The value `text` says, or nil.
  init?(preferenceText text: String)
  var preferenceText: String { get }
  /// What text is accepted, for a refusal (`a whole number`, `true or false`).
  static var preferenceKind: String { get }
}

extension Bool: PreferenceValue {
  public init?(preferenceText text: String) {
    switch text.lowercased() {
    case "true", "yes", "on", "1": self = true
    case "false", "no", "off", "0": self = false
    default: return nil
    }
  }
  public var preferenceText: String { self ? "true" : "false" }
  public static var preferenceKind: String { "true or false" }
}

extension Int: PreferenceValue {
  /// Digits with an optional sign, in range of `Int` (no trap on an overflowing value).
  public init?(preferenceText text: String) {
    guard text.count <= 20, let value = Int(text) else { return nil }
    self = value
  }
  public var preferenceText: String { String(self) }
  public static var preferenceKind: String { "a whole number" }
}

extension Double: PreferenceValue {
  /// A finite number.
  public init?(preferenceText text: String) {
    guard text.count <= 40, let value = Double(text), value.isFinite else { return nil }
    self = value
  }
  public var preferenceText: String { String(self) }
  public static var preferenceKind: String { "a number" }
}

extension String: PreferenceValue {
  public init?(preferenceText text: String) { self = text }
  public var preferenceText: String { self }
  public static var preferenceKind: String { "text" }
}

extension Duration: PreferenceValue {
  /// `250ms`, `30s`, `5m`, `2h` (as the configuration writes durations).
  public init?(preferenceText text: String) {
    let units: [(String, Int64)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000)]
    for (suffix, milliseconds) in units where text.hasSuffix(suffix) {
      guard let count = Int64(text.dropLast(suffix.count)), count >= 0 else { return nil }
      let (total, overflow) = count.multipliedReportingOverflow(by: milliseconds)
      guard !overflow else { return nil }
      self = .milliseconds(total)
      return
    }
    return nil
  }
  public var preferenceText: String {
    let milliseconds = components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
    return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000)s" : "\(milliseconds)ms"
  }
  public static var preferenceKind: String { "a duration (250ms, 30s, 5m, 2h)" }
}

/// An enumeration whose raw values are its text: declare the conformance, nothing more.
/// ```swift
/// enum Theme: String, CaseIterable, PreferenceValue { case light, dark, system }
/// ```
extension PreferenceValue
where Self: RawRepresentable, Self.RawValue == String, Self: CaseIterable {
  public init?(preferenceText text: String) { self.init(rawValue: text) }
  public var preferenceText: String { rawValue }
  public static var preferenceKind: String {
    "one of " + allCases.map(\.rawValue).joined(separator: ", ")
  }
}
