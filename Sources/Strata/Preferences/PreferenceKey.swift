import Foundation

/// One setting a user makes: its name (in the file, on a command line: `page-size`), its
/// type and default, whether it belongs to the signed-in account or to the device, and what
/// values it allows.
/// ```swift
/// let pageSize = PreferenceKey("page-size", default: 10, in: 1...100)
/// ```
public struct PreferenceKey<Value: PreferenceValue>: Sendable {
  public let name: String
  public let defaultValue: Value
  public let scope: PreferenceScope
  /// What values it takes, said to a person (`a whole number from 1 to 100`).
  public let allowed: String
  /// Why `value` is not allowed (nil: it is), beyond being of the type.
  let refusal: @Sendable (Value) -> String?

  /// A setting of `scope` named `name`, `defaultValue` until set; `refusal` says why a value
  /// of the right type is refused (nil: allowed), and `allowed` what is (default: the kind
  /// of its ``PreferenceValue/textFormat``).
  public init(
    _ name: String, default defaultValue: Value, scope: PreferenceScope = .owner,
    allowed: String? = nil, refusal: @escaping @Sendable (Value) -> String? = { _ in nil }
  ) {
    (self.name, self.defaultValue, self.scope, self.refusal) = (name, defaultValue, scope, refusal)
    self.allowed = allowed ?? Value.textFormat.kind
  }

  /// A setting whose values lie in `range`.
  public init(
    _ name: String, default defaultValue: Value, in range: ClosedRange<Value>,
    scope: PreferenceScope = .owner
  ) where Value: Comparable {
    let format = Value.textFormat
    let allowed =
      "\(format.kind) from \(format.text(range.lowerBound)) to \(format.text(range.upperBound))"
    self.init(name, default: defaultValue, scope: scope, allowed: allowed) {
      range.contains($0) ? nil : allowed
    }
  }

  /// The value `text` says, or what is wrong with it.
  func parse(_ text: String) -> Result<Value, PreferenceError> {
    guard text.count <= Preferences.longestValue else {
      return .failure(.tooLong(name: name, limit: Preferences.longestValue))
    }
    guard let value = Value.textFormat.parse(text) else {
      return .failure(.invalid(name: name, text: text, allowed: Value.textFormat.kind))
    }
    if let refused = refusal(value) {
      return .failure(.invalid(name: name, text: text, allowed: refused))
    }
    return .success(value)
  }
}

/// Whose a setting is.
public enum PreferenceScope: String, Sendable {
  /// The session's ``DataOwner``'s: the signed-in account's, the device's own while no one is
  /// signed in; another account signing in on this device sees its own, never this one's.
  /// Written `account` where a person reads or types it (`settings`, the files).
  case owner = "account"
  /// The device's, whoever is signed in (a window size, a log level).
  case device
}

/// A setting refused: unknown, not of its type, out of its range, or too long. Nothing is
/// written.
public enum PreferenceError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
  case unknown(name: String, known: [String])
  case invalid(name: String, text: String, allowed: String)
  case tooLong(name: String, limit: Int)

  public var description: String {
    switch self {
    case .unknown(let name, let known):
      "no setting '\(UntrustedText.sanitize(name, limit: 64))'; the settings are "
        + known.joined(separator: ", ")
    case .invalid(let name, let text, let allowed):
      // A command line's text: shown on one line, secrets and control characters masked.
      TextGrammar.refusal(name, expected: allowed, got: UntrustedText.sanitize(text, limit: 80))
    case .tooLong(let name, let limit):
      "\(name): a value has at most \(limit) characters"
    }
  }

  public var errorDescription: String? { description }
}

/// A ``PreferenceKey`` of any value type, as a list of settings holds it: its name and scope
/// (``Preferences/entries()`` gives the rest).
public protocol AnyPreferenceKey: Sendable {
  var name: String { get }
  var scope: PreferenceScope { get }
}

/// What ``Preferences`` asks of a key whose value type it does not know: the text side.
protocol TextPreferenceKey: AnyPreferenceKey {
  /// The default, as text.
  var defaultText: String { get }
  /// What values it takes, for a listing or a refusal.
  var allowed: String { get }
  /// `text` as the value's own text (`yes` → `true`), or what is wrong with it.
  func normalized(_ text: String) -> Result<String, PreferenceError>
}

extension PreferenceKey: TextPreferenceKey {
  var defaultText: String { Value.textFormat.text(defaultValue) }
  func normalized(_ text: String) -> Result<String, PreferenceError> {
    parse(text).map(Value.textFormat.text)
  }
}
