import Foundation
import StrataConcurrency

/// The secret values this process holds — access and refresh tokens, the password typed at
/// login, values of secret configuration keys, URL passwords — masked *by value* wherever text
/// leaves the process: every log record at every level, `NetworkError` and `ConfigError`
/// descriptions, and the CLI's output.
///
/// The networking layer's redaction hides fields and headers by name; this catches the same values under any name,
/// e.g. a token a hostile server echoes back inside an error message. Strata registers the
/// values it handles itself (``AuthSession`` its tokens, ``Config`` its secret values); an app
/// registers anything else it holds, such as an API key read from the keychain.
public enum KnownSecrets {
  /// Values shorter than this are not registered: masking them would mangle ordinary text.
  package static let minimumLength = 4
  /// At most this many values (with their encoded forms) are kept; the oldest go first.
  package static let capacity = 1024

  /// The registered byte patterns, chained by their first two bytes (longest first), so
  /// `mask(_:)` is one pass over the text with a table look-up per byte.
  struct Patterns: Sendable {
    var inOrder: [[UInt8]] = []
    var known: Set<[UInt8]> = []
    /// For each first-two-bytes key, the first pattern of its chain (-1: none).
    var heads: [Int32] = []
    /// For each pattern, the next one in its chain (-1: end).
    var next: [Int32] = []

    mutating func insert(_ pattern: [UInt8]) {
      guard known.insert(pattern).inserted else { return }
      inOrder.append(pattern)
      if inOrder.count > KnownSecrets.capacity {
        known.remove(inOrder.removeFirst())
      }
    }

    mutating func index() {
      heads = [Int32](repeating: -1, count: 1 << 16)
      next = [Int32](repeating: -1, count: inOrder.count)
      // Shortest pushed first, so each chain starts with its longest pattern.
      for position in inOrder.indices.sorted(by: { inOrder[$0].count < inOrder[$1].count }) {
        let key = Self.key(inOrder[position][0], inOrder[position][1])
        next[position] = heads[key]
        heads[key] = Int32(position)
      }
    }

    static func key(_ first: UInt8, _ second: UInt8) -> Int { Int(first) << 8 | Int(second) }
  }

  private static let patterns = Lock(Patterns())
  private static let count = AtomicInt(0)

  /// Remembers `value` as a secret: from now on `mask(_:)` replaces it, and its JSON-escaped
  /// and percent-encoded forms, with `<redacted>`.
  public static func register(_ value: String) { register([value]) }

  /// Registers every value in `values` (nil and short ones are skipped).
  package static func register(_ values: [String?]) {
    let forms = values.compactMap { $0 }.filter { $0.unicodeScalars.count >= minimumLength }
      .flatMap(encodedForms)
    guard !forms.isEmpty else { return }
    patterns.withLock { patterns in
      for form in forms { patterns.insert(Array(form.utf8)) }
      patterns.index()
      count.storeReleasing(patterns.inOrder.count)
    }
  }

  /// `text` with every registered value replaced by `<redacted>`.
  public static func mask(_ text: String) -> String {
    guard count.load() > 0, !text.isEmpty else { return text }
    guard let masked = mask(Array(text.utf8), with: patterns.withLock { $0 }) else { return text }
    return String(decoding: masked, as: UTF8.self)
  }

  /// The bytes with every match replaced, or nil when nothing matched.
  private static func mask(_ bytes: [UInt8], with patterns: Patterns) -> [UInt8]? {
    let placeholder = Array(Redactor.placeholder.utf8)
    var output: [UInt8] = []
    var copied = 0
    var index = 0
    var matched = false
    bytes.withUnsafeBufferPointer { text in
      while index + 1 < text.count {
        var length = 0
        var candidate = patterns.heads[Patterns.key(text[index], text[index + 1])]
        while candidate >= 0 {
          let pattern = patterns.inOrder[Int(candidate)]
          if pattern.count <= text.count - index,
            pattern.withUnsafeBufferPointer({ p in
              var offset = 2
              while offset < p.count, p[offset] == text[index + offset] { offset += 1 }
              return offset == p.count
            })
          {
            length = pattern.count
            break
          }
          candidate = patterns.next[Int(candidate)]
        }
        guard length > 0 else {
          index += 1
          continue
        }
        if !matched { output.reserveCapacity(text.count) }
        matched = true
        output.append(contentsOf: text[copied..<index])
        output.append(contentsOf: placeholder)
        index += length
        copied = index
      }
      if matched { output.append(contentsOf: text[copied...]) }
    }
    return matched ? output : nil
  }

  /// The value, its JSON-escaped form and its percent-encoded form.
  private static func encodedForms(_ value: String) -> [String] {
    var forms = [value]
    let escaped = value.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "/", with: "\\/")
    if escaped != value { forms.append(escaped) }
    if let encoded = value.addingPercentEncoding(withAllowedCharacters: unreserved),
      encoded != value
    {
      forms.append(encoded)
    }
    return forms
  }

  private static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
