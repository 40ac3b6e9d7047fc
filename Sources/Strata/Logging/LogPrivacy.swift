/// Whether an interpolated value may appear in logs, as with `os.Logger`.
public enum LogPrivacy: Sendable, Hashable {
  case `public`
  /// Printed as `<private>` unless revealing is switched on for local debugging.
  case `private`
}

/// A log message built by string interpolation, remembering which parts are private.
/// ```swift
/// Log.auth.info("signed in as \(username, privacy: .private)")
/// ```
public struct LogMessage: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
  /// The text with private values as `<private>`: what is written unless revealing is on.
  let hidden: String
  /// The text with private values shown; nil when the message has none (then it is `hidden`).
  /// Both are built as the message is, so writing it costs no second pass.
  let revealed: String?

  /// Creates a message from a literal with no interpolations.
  public init(stringLiteral value: String) { (hidden, revealed) = (value, nil) }

  /// Creates a message from an interpolation.
  public init(stringInterpolation: Interpolation) {
    (hidden, revealed) = (stringInterpolation.hidden, stringInterpolation.revealed)
  }

  /// The message with private values hidden.
  public var description: String { hidden }

  /// The message text, with private values replaced by `<private>` unless `revealingPrivate`.
  /// - Parameter revealingPrivate: Show private values (local debugging only).
  package func rendered(revealingPrivate: Bool) -> String {
    revealingPrivate ? revealed ?? hidden : hidden
  }

  /// Collects literal text and interpolated values with their privacy.
  public struct Interpolation: StringInterpolationProtocol, Sendable {
    var hidden = ""
    /// Started at the first private value, from a copy of `hidden` up to it.
    var revealed: String?

    /// Reserves room for the pieces when they cannot fit in a small string (15 UTF-8 bytes,
    /// held inline): reserving any capacity puts the text on the heap, one allocation per
    /// message that needs none (`"retry \(n)"`).
    public init(literalCapacity: Int, interpolationCount: Int) {
      let estimate = literalCapacity + interpolationCount * 4
      if estimate > 15 { hidden.reserveCapacity(estimate + interpolationCount * 4) }
    }

    public mutating func appendLiteral(_ literal: String) { append(literal, .public) }

    /// Appends a value's description with the given privacy. A `Secret` is always
    /// `<redacted>`, whatever the privacy.
    /// - Parameter value: The value.
    /// - Parameter privacy: `.public` (default) or `.private`.
    public mutating func appendInterpolation<T>(_ value: T, privacy: LogPrivacy = .public) {
      append(String(describing: value), privacy)
    }

    /// Appends `value.description`: what `String(describing:)` finds only through runtime
    /// conformance checks, which cost more than the rest of a log call.
    /// - Parameter value: The value.
    /// - Parameter privacy: `.public` (default) or `.private`.
    public mutating func appendInterpolation<T: CustomStringConvertible>(
      _ value: T, privacy: LogPrivacy = .public
    ) {
      append(value.description, privacy)
    }

    private mutating func append(_ text: String, _ privacy: LogPrivacy) {
      guard privacy == .private else {
        hidden += text
        revealed? += text
        return
      }
      revealed = (revealed ?? hidden) + text
      hidden += "<private>"
    }
  }
}
