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
  enum Segment: Sendable {
    case text(String)
    case privateText(String)
  }

  var segments: [Segment]

  /// Creates a message from a literal with no interpolations.
  public init(stringLiteral value: String) { segments = [.text(value)] }

  /// Creates a message from an interpolation.
  public init(stringInterpolation: Interpolation) { segments = stringInterpolation.segments }

  /// The message with private values hidden.
  public var description: String { rendered(revealingPrivate: false) }

  /// The message text, with private values replaced by `<private>` unless `revealingPrivate`.
  /// - Parameter revealingPrivate: Show private values (local debugging only).
  package func rendered(revealingPrivate: Bool) -> String {
    var output = ""
    for segment in segments {
      switch segment {
      case .text(let text): output += text
      case .privateText(let text): output += revealingPrivate ? text : "<private>"
      }
    }
    return output
  }

  /// Collects literal text and interpolated values with their privacy.
  public struct Interpolation: StringInterpolationProtocol, Sendable {
    var segments: [Segment] = []

    /// Reserves room for the pieces.
    public init(literalCapacity: Int, interpolationCount: Int) {
      segments.reserveCapacity(interpolationCount * 2 + 1)
    }

    public mutating func appendLiteral(_ literal: String) { segments.append(.text(literal)) }

    /// Appends a value's description with the given privacy. A `Secret` is always
    /// `<redacted>`, whatever the privacy.
    /// - Parameter value: The value.
    /// - Parameter privacy: `.public` (default) or `.private`.
    public mutating func appendInterpolation<T>(_ value: T, privacy: LogPrivacy = .public) {
      let text = String(describing: value)
      segments.append(privacy == .private ? .privateText(text) : .text(text))
    }
  }
}
