/// Scans one line of a configuration file — valid UTF-8, checked before — byte by byte, never
/// by `Character`, so `\r\n` and combining marks cannot hide a delimiter: every delimiter is
/// ASCII, and no byte of a multi-byte scalar is ASCII. Positions are byte offsets into the
/// file's buffer; a location counts scalars, so columns stay exact for any text.
struct LineScanner {
  /// The line, a slice of the whole file (no copy per line).
  let bytes: ArraySlice<UInt8>
  let file: String
  let line: Int
  var index: Int

  init(_ bytes: ArraySlice<UInt8>, file: String, line: Int) {
    (self.bytes, self.file, self.line, index) = (bytes, file, line, bytes.startIndex)
  }

  // MARK: Positions

  var isAtEnd: Bool { index >= bytes.endIndex }
  /// The byte here as a scalar: exact for ASCII, which is all a scan compares with (a byte of a
  /// multi-byte scalar is never whitespace, a delimiter or part of a key); ``scalar(at:)``
  /// decodes the whole scalar for a message.
  var current: Unicode.Scalar? { index < bytes.endIndex ? Unicode.Scalar(bytes[index]) : nil }

  func peek(_ offset: Int = 0) -> Unicode.Scalar? {
    let position = index + offset
    return position < bytes.endIndex ? Unicode.Scalar(bytes[position]) : nil
  }

  /// The whole scalar that starts at `position` (a line is valid UTF-8).
  func scalar(at position: Int) -> Unicode.Scalar {
    var iterator = bytes[position...].makeIterator()
    var codec = UTF8()
    if case .scalarValue(let scalar) = codec.decode(&iterator) { return scalar }
    return "\u{FFFD}"
  }

  func location(_ position: Int? = nil) -> SourceLocation {
    // Scalars before the position: every byte but a continuation byte (10xxxxxx) starts one.
    let column = bytes[..<(position ?? index)].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
    return SourceLocation(file: file, line: line, column: column)
  }

  func error(_ kind: ConfigError.Kind, at position: Int? = nil, _ message: String) -> ConfigError {
    ConfigError(kind, at: location(position), message)
  }

  func hasPrefix(_ text: StaticString) -> Bool {
    bytes[index...].starts(
      with: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  mutating func skipWhitespace() {
    while index < bytes.endIndex, Self.isWhitespace(bytes[index]) { index += 1 }
  }

  /// True when the rest of the line is empty or a comment (`//` or `#`).
  mutating func restIsComment() -> Bool {
    skipWhitespace()
    return isAtEnd || hasPrefix("//") || current == "#"
  }

  // MARK: Keys

  /// Scans `[A-Za-z_][A-Za-z0-9_]*`; returns nil (and does not move) if no key starts here.
  mutating func scanIdentifier() -> String? {
    guard let first = current, Self.isIdentifierStart(first) else { return nil }
    let start = index
    while let scalar = current, Self.isIdentifierBody(scalar) { index += 1 }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  // MARK: Values

  /// Scans the value after `=`: quoted or unquoted, up to a trailing comment.
  mutating func scanValue() throws -> [ValueSegment] {
    switch current {
    case "\"": return try scanDoubleQuoted()
    case "'": return try scanSingleQuoted()
    default: return try scanUnquoted()
    }
  }

  /// An unquoted value ends at end of line or at `//` / `#` preceded by whitespace, so
  /// `https://dummyjson.com` keeps its `//`. Trailing whitespace is dropped.
  private mutating func scanUnquoted() throws -> [ValueSegment] {
    var end = index
    while end < bytes.endIndex {
      end = firstIndex(from: end, before: bytes.endIndex) {
        $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "#")
      }
      guard end < bytes.endIndex else { break }
      let startsComment =
        bytes[end] == UInt8(ascii: "#")
        || (end + 1 < bytes.endIndex && bytes[end + 1] == UInt8(ascii: "/"))
      if startsComment && end > bytes.startIndex && Self.isWhitespace(bytes[end - 1]) { break }
      end += 1
    }
    while end > index && Self.isWhitespace(bytes[end - 1]) { end -= 1 }
    var builder = SegmentBuilder()
    while index < end {
      try scanPiece(into: &builder, limit: end)
    }
    index = bytes.endIndex
    return builder.finish()
  }

  /// `"..."` with `\"`, `\\`, `\n`, `\t` escapes and substitution.
  private mutating func scanDoubleQuoted() throws -> [ValueSegment] {
    let open = index
    index += 1
    var builder = SegmentBuilder()
    while true {
      guard let scalar = current else {
        throw error(.unterminatedQuote, at: open, "unterminated quoted value: add a closing '\"'")
      }
      switch scalar {
      case "\"":
        index += 1
        try expectOnlyComment(after: "closing quote")
        return builder.finish()
      case "\\":
        guard let escaped = peek(1) else {
          throw error(.unterminatedQuote, at: open, "unterminated quoted value: add a closing '\"'")
        }
        switch escaped {
        case "\"", "\\": builder.append(UInt8(ascii: escaped))
        case "n": builder.append(UInt8(ascii: "\n"))
        case "t": builder.append(UInt8(ascii: "\t"))
        default:
          let escaped = self.scalar(at: index + 1)
          throw error(
            .invalidEscape, "invalid escape '\\\(escaped)': use \\\" \\\\ \\n or \\t")
        }
        index += 2
      default:
        try scanPiece(into: &builder, limit: bytes.endIndex, quote: UInt8(ascii: "\""))
      }
    }
  }

  /// `'...'`: literal text, no escapes, no substitution.
  private mutating func scanSingleQuoted() throws -> [ValueSegment] {
    let open = index
    index += 1
    let start = index
    while current != "'" {
      guard !isAtEnd else {
        throw error(.unterminatedQuote, at: open, "unterminated quoted value: add a closing \"'\"")
      }
      index += 1
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    index += 1
    try expectOnlyComment(after: "closing quote")
    return [.literal(text)]
  }

  mutating func expectOnlyComment(after what: String) throws {
    guard restIsComment() else {
      throw error(.unexpectedText, "unexpected text after \(what): only a comment may follow")
    }
  }

  /// Scans a run of literal text, `$$`, or a `$(...)`/`${...}` reference.
  private mutating func scanPiece(
    into builder: inout SegmentBuilder, limit: Int, quote: UInt8? = nil
  ) throws {
    let dollar = UInt8(ascii: "$")
    guard bytes[index] == dollar, index + 1 < limit else {
      // A run of plain bytes goes in at once (most values have no `$` at all).
      let end = firstIndex(from: index + 1, before: limit) {
        $0 == dollar || $0 == quote || $0 == UInt8(ascii: "\\")
      }
      builder.append(contentsOf: bytes[index..<end])
      index = end
      return
    }
    switch bytes[index + 1] {
    case dollar:
      builder.append(dollar)
      index += 2
    case UInt8(ascii: "("), UInt8(ascii: "{"):
      builder.append(reference: try scanReference(limit: limit))
    default:
      builder.append(dollar)
      index += 1
    }
  }

  /// Scans `$(NAME)` or `${NAME}` starting at `$`; the name may nest references.
  private mutating func scanReference(limit: Int) throws -> ValueSegment {
    let start = index
    let close: Unicode.Scalar = bytes[index + 1] == UInt8(ascii: "(") ? ")" : "}"
    index += 2
    var name = SegmentBuilder()
    while true {
      guard index < limit else {
        throw error(.invalidReference, at: start, "unterminated variable reference: add '\(close)'")
      }
      let scalar = Unicode.Scalar(bytes[index])
      if scalar == close {
        index += 1
        break
      }
      if scalar == "$", index + 1 < limit, peek(1) == "(" || peek(1) == "{" {
        name.append(reference: try scanReference(limit: limit))
      } else if Self.isIdentifierBody(scalar) {
        name.append(bytes[index])
        index += 1
      } else {
        throw error(
          .invalidReference,
          "invalid character '\(self.scalar(at: index).escaped(asASCII: true))' in variable "
            + "name: names are letters, digits and '_'")
      }
    }
    let segments = name.finish()
    guard !segments.isEmpty else {
      throw error(.invalidReference, at: start, "empty variable reference: write $(NAME)")
    }
    return .reference(name: segments, location: location(start))
  }

  private func firstIndex(from start: Int, before limit: Int, where stops: (UInt8) -> Bool)
    -> Int
  {
    Self.firstIndex(in: bytes, from: start, before: limit, where: stops)
  }

  /// The first position in `start..<limit` of `bytes` whose byte `stops` the scan, or `limit`.
  /// On the buffer: the per-byte bounds checks of the slice were most of a large file's scan.
  static func firstIndex(
    in bytes: ArraySlice<UInt8>, from start: Int, before limit: Int,
    where stops: (UInt8) -> Bool
  ) -> Int {
    let base = bytes.startIndex
    return bytes.withUnsafeBufferPointer { buffer in
      var offset = start - base
      while offset < limit - base, !stops(buffer[offset]) { offset += 1 }
      return offset + base
    }
  }

  // MARK: Character classes

  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
  }

  static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "_" || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar)
  }

  static func isIdentifierBody(_ scalar: Unicode.Scalar) -> Bool {
    isIdentifierStart(scalar) || ("0"..."9").contains(scalar)
  }
}

/// Accumulates literal bytes and references into a compact segment list, literal text as
/// the file's own UTF-8.
struct SegmentBuilder {
  private var segments: [ValueSegment] = []
  private var literal: [UInt8] = []
  /// A run of the file's bytes not copied yet: most literals are a single run, decoded
  /// straight from the file's buffer with no copy in between.
  private var run: ArraySlice<UInt8>?

  mutating func append(_ byte: UInt8) {
    spill()
    literal.append(byte)
  }

  mutating func append(contentsOf run: ArraySlice<UInt8>) {
    if literal.isEmpty && self.run == nil {
      self.run = run
    } else {
      spill()
      literal.append(contentsOf: run)
    }
  }

  mutating func append(reference: ValueSegment) {
    flush()
    segments.append(reference)
  }

  private mutating func spill() {
    guard let pending = run else { return }
    literal.append(contentsOf: pending)
    run = nil
  }

  private mutating func flush() {
    if literal.isEmpty, let pending = run {
      segments.append(.literal(String(decoding: pending, as: UTF8.self)))
      run = nil
      return
    }
    spill()
    guard !literal.isEmpty else { return }
    segments.append(.literal(String(decoding: literal, as: UTF8.self)))
    literal.removeAll(keepingCapacity: true)
  }

  mutating func finish() -> [ValueSegment] {
    flush()
    return segments
  }
}
