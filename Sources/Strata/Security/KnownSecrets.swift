import Foundation
import Synchronization

/// The secret values this process holds — access and refresh tokens, the password typed at
/// login, values of secret configuration keys, URL passwords — masked *by value* wherever text
/// leaves the process: every log record at every level, `NetworkError` and `ConfigError`
/// descriptions, and the CLI's output.
///
/// ``Redactor`` hides fields and headers by name; this catches the same values under any name,
/// e.g. a token a hostile server echoes back inside an error message. Strata registers the
/// values it handles itself (``AuthSession`` its tokens, ``Config`` its secret values); an app
/// registers anything else it holds, such as an API key read from the keychain.
public enum KnownSecrets {
  /// Values shorter than this are not registered: masking them would mangle ordinary text.
  public static let minimumLength = 4
  /// At most this many values (with their encoded forms) are kept; the oldest go first.
  public static let capacity = 1024

  private static let values = Mutex<[String]>([])
  private static let count = Atomic<Int>(0)

  /// Remembers `value` as a secret: from now on ``mask(_:)`` replaces it, and its JSON-escaped
  /// and percent-encoded forms, with `<redacted>`.
  public static func register(_ value: String) {
    guard value.unicodeScalars.count >= minimumLength else { return }
    var forms = [value]
    let escaped = value.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "/", with: "\\/")
    if escaped != value { forms.append(escaped) }
    if let encoded = value.addingPercentEncoding(withAllowedCharacters: unreserved),
      encoded != value
    {
      forms.append(encoded)
    }
    values.withLock { values in
      for form in forms where !values.contains(form) { values.append(form) }
      if values.count > capacity { values.removeFirst(values.count - capacity) }
      // Longest first, so a value that contains another is masked whole.
      values.sort { $0.utf8.count > $1.utf8.count }
      count.store(values.count, ordering: .relaxed)
    }
  }

  /// Registers every value in `values` (nil and short ones are skipped).
  public static func register(_ values: [String?]) {
    for value in values.compactMap({ $0 }) { register(value) }
  }

  /// `text` with every registered value replaced by `<redacted>`.
  public static func mask(_ text: String) -> String {
    guard count.load(ordering: .relaxed) > 0, !text.isEmpty else { return text }
    var output = text
    for value in values.withLock({ $0 }) where output.contains(value) {
      output = output.replacingOccurrences(of: value, with: Redactor.placeholder)
    }
    return output
  }

  /// Whether `text` contains a registered value.
  public static func containsSecret(_ text: String) -> Bool {
    guard count.load(ordering: .relaxed) > 0 else { return false }
    return values.withLock { $0 }.contains { text.contains($0) }
  }

  private static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
