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

  /// The registered byte patterns, found in one pass over a text. The scan skips ahead as
  /// Wu–Manber does: every pattern is at least 4 bytes long, so the pair of bytes at 2 and 3
  /// past a position tells how far the next possible start is (up to 3 bytes; most log text
  /// holds no pair any secret holds near its start). Where no skip is possible, a bit per
  /// first two bytes filters the position (8 KiB, in cache); where that passes, a pattern of
  /// 8 bytes or more is looked up by a hash of its first 8 bytes, a shorter one by its first
  /// 4, each chain longest first. Keying on 8 bytes keeps chains short even when many secrets share a
  /// prefix (`value 1`, `value 2`, …): a 2-byte key made every `va` in a text walk them all.
  struct Patterns: Sendable {
    var inOrder: [[UInt8]] = []
    var known: Set<Bytes> = []
    /// For each hash of a first 8 bytes (4 for a shorter pattern), the first pattern of its
    /// chain (-1: none).
    var longHeads: [Int32] = []
    var shortHeads: [Int32] = []
    /// For each pattern, the next one in its chain (-1: end).
    var next: [Int32] = []
    /// One bit per first-two-bytes key that starts a pattern.
    var starts: [UInt64] = []
    /// For each pair of bytes, how far a scan at position `i` that finds it at `i + 2` may
    /// move on: 3 for a pair no pattern holds in its first 4 bytes, 0 where one starts.
    var skips: [UInt8] = []

    /// False when `pattern` was already known (nothing to re-index).
    @discardableResult
    mutating func insert(_ pattern: [UInt8]) -> Bool {
      guard known.insert(Bytes(pattern)).inserted else { return false }
      inOrder.append(pattern)
      return true
    }

    /// Drops the oldest beyond ``KnownSecrets/capacity``, in one step after a batch (one at a
    /// time, each insert past the limit shifted the whole list).
    mutating func trim() {
      let excess = inOrder.count - KnownSecrets.capacity
      guard excess > 0 else { return }
      for pattern in inOrder[..<excess] { known.remove(Bytes(pattern)) }
      inOrder.removeFirst(excess)
    }

    mutating func index() {
      longHeads = [Int32](repeating: -1, count: 1 << 16)
      shortHeads = [Int32](repeating: -1, count: 1 << 16)
      next = [Int32](repeating: -1, count: inOrder.count)
      starts = [UInt64](repeating: 0, count: (1 << 16) / 64)
      skips = [UInt8](repeating: UInt8(Self.maximumSkip), count: 1 << 16)
      // Shortest pushed first, so each chain starts with its longest pattern.
      for position in inOrder.indices.sorted(by: { inOrder[$0].count < inOrder[$1].count }) {
        let pattern = inOrder[position]
        let start = Self.key(pattern[0], pattern[1])
        starts[start >> 6] |= 1 << UInt64(start & 63)
        // The pair at offset j of a pattern lets a scan skip 2 - j where it sees that pair.
        for offset in 0...Self.maximumSkip - 1 {
          let pair = Self.key(pattern[offset], pattern[offset + 1])
          skips[pair] = min(skips[pair], UInt8(Self.maximumSkip - 1 - offset))
        }
        pattern.withUnsafeBufferPointer { bytes in
          if bytes.count >= 8 {
            let key = Self.hash(bytes, at: 0, count: 8)
            next[position] = longHeads[key]
            longHeads[key] = Int32(position)
          } else {
            let key = Self.hash(bytes, at: 0, count: 4)
            next[position] = shortHeads[key]
            shortHeads[key] = Int32(position)
          }
        }
      }
    }

    static func key(_ first: UInt8, _ second: UInt8) -> Int { Int(first) << 8 | Int(second) }

    /// The shortest pattern's length less the pair's 2, plus one.
    static let maximumSkip = KnownSecrets.minimumLength - 1

    /// 16 bits of a multiplicative hash of `count` (4 or 8) bytes from `offset`.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, count: Int) -> Int {
      var word: UInt64 = 0
      for index in offset..<(offset + count) { word = word << 8 | UInt64(bytes[index]) }
      return Int((word &* 0x9E37_79B9_7F4A_7C15) >> 48)
    }
  }

  /// A pattern as a set member, hashed in one call: an array of bytes hashes one byte at a
  /// time, and a config's thousand secrets are looked up on every load. Not `String`: its
  /// equality is canonical equivalence, and two spellings of one text are two patterns.
  struct Bytes: Hashable, Sendable {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
  }

  /// Each thread masks with its own copy, refreshed after a `register`: a lock read by every
  /// log line on every thread made its counter the contended cache line.
  private static let patterns = PerThreadSnapshot(Patterns())
  private static let count = AtomicInt(0)

  /// Remembers `value` as a secret: from now on `mask(_:)` replaces it, and its JSON-escaped
  /// and percent-encoded forms, with `<redacted>`.
  public static func register(_ value: String) { register([value]) }

  /// Registers every value in `values` (nil and short ones are skipped).
  package static func register(_ values: [String?]) {
    // Only the newest `capacity` can be kept: a larger batch (a config with thousands of
    // secret-looking keys) would otherwise evict its own first half on every load, and
    // re-index each time, instead of finding every value already known the second time.
    let values = values.compactMap { $0 }.filter(isLongEnough).suffix(capacity)
    // A value known already was registered with its encoded forms: a config loaded again
    // neither encodes its values again nor copies the patterns to find nothing new.
    let unknown = patterns.read { patterns in
      values.filter { !patterns.known.contains(Bytes(Array($0.utf8))) }
    }
    let forms = unknown.flatMap(encodedForms).suffix(capacity)
    guard !forms.isEmpty else { return }
    patterns.update { patterns in
      var added = false
      for form in forms where patterns.insert(Array(form.utf8)) { added = true }
      guard added else { return false }  // another thread registered them since the read
      patterns.trim()
      patterns.index()
      count.storeReleasing(patterns.inOrder.count)
      return true
    }
  }

  /// At least ``minimumLength`` scalars; counted only for short values (a scalar is at most 4
  /// bytes, so 16 bytes hold 4 scalars whatever they are).
  private static func isLongEnough(_ value: String) -> Bool {
    let bytes = value.utf8.count
    return bytes >= 4 * minimumLength
      || (bytes >= minimumLength && value.unicodeScalars.count >= minimumLength)
  }

  /// `text` with every registered value replaced by `<redacted>`.
  public static func mask(_ text: String) -> String {
    guard count.load() > 0, !text.isEmpty else { return text }
    // A native string's UTF-8 is read in place; a bridged one is copied first.
    let found = patterns.read { patterns in
      text.utf8.withContiguousStorageIfAvailable { mask($0, with: patterns) }
        ?? Array(text.utf8).withUnsafeBufferPointer { mask($0, with: patterns) }
    }
    guard let masked = found else { return text }
    return String(decoding: masked, as: UTF8.self)
  }

  /// Whether `bytes` hold a registered value (or one of its encoded forms): what is about to
  /// be written to a file (a cached answer) is checked, so no secret the process holds reaches
  /// one — a server that echoes a token back included.
  package static func occur(in bytes: Data) -> Bool {
    guard count.load() > 0, !bytes.isEmpty else { return false }
    return patterns.read { patterns in
      bytes.withUnsafeBytes { raw in
        mask(raw.bindMemory(to: UInt8.self), with: patterns) != nil
      }
    }
  }

  /// The bytes with every match replaced, or nil when nothing matched.
  private static func mask(_ text: UnsafeBufferPointer<UInt8>, with patterns: borrowing Patterns)
    -> [UInt8]?
  {
    var output: [UInt8] = []
    var copied = 0
    var index = 0
    var matched = false
    // Every pattern has at least `minimumLength` bytes: none starts in the last three.
    while index + minimumLength <= text.count {
      let skip = Int(patterns.skips[Patterns.key(text[index + 2], text[index + 3])])
      guard skip == 0 else {
        index += skip
        continue
      }
      let key = Patterns.key(text[index], text[index + 1])
      guard patterns.starts[key >> 6] & (1 << UInt64(key & 63)) != 0 else {
        index += 1
        continue
      }
      var length = 0
      if index + 8 <= text.count {
        length = longest(
          from: patterns.longHeads[Patterns.hash(text, at: index, count: 8)], in: patterns,
          matching: text, at: index)
      }
      if length == 0, index + 4 <= text.count {
        length = longest(
          from: patterns.shortHeads[Patterns.hash(text, at: index, count: 4)], in: patterns,
          matching: text, at: index)
      }
      guard length > 0 else {
        index += 1
        continue
      }
      if !matched { output.reserveCapacity(text.count) }
      matched = true
      output.append(contentsOf: text[copied..<index])
      output.append(contentsOf: placeholderBytes)
      index += length
      copied = index
    }
    guard matched else { return nil }
    output.append(contentsOf: text[copied...])
    return output
  }

  private static let placeholderBytes = Array(Redactor.placeholder.utf8)

  /// The length of the first pattern of the chain from `head` that `text` holds at `index`
  /// (chains run longest first); 0 when none does.
  private static func longest(
    from head: Int32, in patterns: borrowing Patterns, matching text: UnsafeBufferPointer<UInt8>,
    at index: Int
  ) -> Int {
    var candidate = head
    while candidate >= 0 {
      let pattern = patterns.inOrder[Int(candidate)]
      if pattern.count <= text.count - index,
        pattern.withUnsafeBufferPointer({ bytes in
          var offset = 0
          while offset < bytes.count, bytes[offset] == text[index + offset] { offset += 1 }
          return offset == bytes.count
        })
      {
        return pattern.count
      }
      candidate = patterns.next[Int(candidate)]
    }
    return 0
  }

  /// The value, its JSON-escaped form and its percent-encoded form.
  private static func encodedForms(_ value: String) -> [String] {
    var forms = [value]
    // Most values (tokens, keys) need neither encoding: checked byte by byte first, as a
    // config of a thousand secret values otherwise spent a fifth of its load in Foundation.
    if value.utf8.contains(where: {
      $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "/")
    }) {
      forms.append(
        value.replacingOccurrences(of: "\\", with: "\\\\")
          .replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "/", with: "\\/"))
    }
    if !value.utf8.allSatisfy(isUnreserved) {
      // As `addingPercentEncoding(withAllowedCharacters:)` writes it: `%XX`, upper case.
      let hex = Array("0123456789ABCDEF".utf8)
      var encoded: [UInt8] = []
      encoded.reserveCapacity(value.utf8.count * 3)
      for byte in value.utf8 {
        if isUnreserved(byte) {
          encoded.append(byte)
        } else {
          encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
        }
      }
      forms.append(String(decoding: encoded, as: UTF8.self))
    }
    return forms
  }

  /// RFC 3986's unreserved characters: what percent-encoding leaves as it is.
  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      true
    default: false
    }
  }
}
