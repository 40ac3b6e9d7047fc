/// Scans one line of a configuration file, scalar by scalar (never `Character`, so `\r\n` and
/// combining marks cannot hide a delimiter), producing keys, values and value segments.
struct LineScanner {
  let scalars: [Unicode.Scalar]
  let file: String
  let line: Int
  var index = 0

  init(_ scalars: [Unicode.Scalar], file: String, line: Int) {
    (self.scalars, self.file, self.line) = (scalars, file, line)
  }

  // MARK: Positions

  var isAtEnd: Bool { index >= scalars.count }
  var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

  func peek(_ offset: Int = 0) -> Unicode.Scalar? {
    let position = index + offset
    return position < scalars.count ? scalars[position] : nil
  }

  func location(_ position: Int? = nil) -> SourceLocation {
    SourceLocation(file: file, line: line, column: (position ?? index) + 1)
  }

  func error(_ kind: ConfigError.Kind, at position: Int? = nil, _ message: String) -> ConfigError {
    ConfigError(kind, at: location(position), message)
  }

  func hasPrefix(_ text: String) -> Bool {
    var position = index
    for scalar in text.unicodeScalars {
      guard position < scalars.count, scalars[position] == scalar else { return false }
      position += 1
    }
    return true
  }

  mutating func skipWhitespace() {
    while let scalar = current, Self.isWhitespace(scalar) { index += 1 }
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
    // Identifiers are ASCII: their scalars are their UTF-8 bytes.
    var bytes: [UInt8] = []
    while let scalar = current, Self.isIdentifierBody(scalar) {
      bytes.append(UInt8(truncatingIfNeeded: scalar.value))
      index += 1
    }
    return String(decoding: bytes, as: UTF8.self)
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
    while end < scalars.count {
      let startsComment =
        (scalars[end] == "/" && end + 1 < scalars.count && scalars[end + 1] == "/")
        || scalars[end] == "#"
      if startsComment && end > 0 && Self.isWhitespace(scalars[end - 1]) { break }
      end += 1
    }
    while end > index && Self.isWhitespace(scalars[end - 1]) { end -= 1 }
    var builder = SegmentBuilder()
    while index < end {
      try scanPiece(into: &builder, limit: end)
    }
    index = scalars.count
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
        case "\"", "\\": builder.append(escaped)
        case "n": builder.append("\n")
        case "t": builder.append("\t")
        default:
          throw error(
            .invalidEscape, "invalid escape '\\\(escaped)': use \\\" \\\\ \\n or \\t")
        }
        index += 2
      default:
        try scanPiece(into: &builder, limit: scalars.count, quote: "\"")
      }
    }
  }

  /// `'...'`: literal text, no escapes, no substitution.
  private mutating func scanSingleQuoted() throws -> [ValueSegment] {
    let open = index
    index += 1
    var text = String.UnicodeScalarView()
    while true {
      guard let scalar = current else {
        throw error(.unterminatedQuote, at: open, "unterminated quoted value: add a closing \"'\"")
      }
      index += 1
      if scalar == "'" { break }
      text.append(scalar)
    }
    try expectOnlyComment(after: "closing quote")
    return [.literal(String(text))]
  }

  mutating func expectOnlyComment(after what: String) throws {
    guard restIsComment() else {
      throw error(.unexpectedText, "unexpected text after \(what): only a comment may follow")
    }
  }

  /// Scans one literal scalar, `$$`, or a `$(...)`/`${...}` reference.
  private mutating func scanPiece(
    into builder: inout SegmentBuilder, limit: Int, quote: Unicode.Scalar? = nil
  ) throws {
    let scalar = scalars[index]
    guard scalar == "$", index + 1 < limit else {
      // A run of plain scalars goes in at once (most values have no `$` at all).
      var end = index + 1
      while end < limit, scalars[end] != "$", scalars[end] != quote, scalars[end] != "\\" {
        end += 1
      }
      builder.append(contentsOf: scalars[index..<end])
      index = end
      return
    }
    switch scalars[index + 1] {
    case "$":
      builder.append("$")
      index += 2
    case "(", "{":
      builder.append(reference: try scanReference(limit: limit))
    default:
      builder.append(scalar)
      index += 1
    }
  }

  /// Scans `$(NAME)` or `${NAME}` starting at `$`; the name may nest references.
  private mutating func scanReference(limit: Int) throws -> ValueSegment {
    let start = index
    let close: Unicode.Scalar = scalars[index + 1] == "(" ? ")" : "}"
    index += 2
    var name = SegmentBuilder()
    while true {
      guard index < limit else {
        throw error(.invalidReference, at: start, "unterminated variable reference: add '\(close)'")
      }
      let scalar = scalars[index]
      if scalar == close {
        index += 1
        break
      }
      if scalar == "$", index + 1 < limit, scalars[index + 1] == "(" || scalars[index + 1] == "{" {
        name.append(reference: try scanReference(limit: limit))
      } else if Self.isIdentifierBody(scalar) {
        name.append(scalar)
        index += 1
      } else {
        throw error(
          .invalidReference,
          "invalid character '\(scalar.escaped(asASCII: true))' in variable name: "
            + "names are letters, digits and '_'")
      }
    }
    let segments = name.finish()
    guard !segments.isEmpty else {
      throw error(.invalidReference, at: start, "empty variable reference: write $(NAME)")
    }
    return .reference(name: segments, location: location(start))
  }

  // MARK: Character classes

  static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }

  static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "_" || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar)
  }

  static func isIdentifierBody(_ scalar: Unicode.Scalar) -> Bool {
    isIdentifierStart(scalar) || ("0"..."9").contains(scalar)
  }
}

/// Accumulates literal scalars and references into a compact segment list. Literal text is
/// kept as UTF-8 bytes: appending to a `String.UnicodeScalarView` scalar by scalar cost a
/// quarter of the time a 10,000-line file took to load.
struct SegmentBuilder {
  private var segments: [ValueSegment] = []
  private var literal: [UInt8] = []

  mutating func append(_ scalar: Unicode.Scalar) {
    if scalar.isASCII {
      literal.append(UInt8(truncatingIfNeeded: scalar.value))
    } else {
      literal.append(contentsOf: UTF8.encode(scalar).map(Array.init) ?? [])
    }
  }

  mutating func append(contentsOf run: ArraySlice<Unicode.Scalar>) {
    for scalar in run { append(scalar) }
  }

  mutating func append(reference: ValueSegment) {
    flush()
    segments.append(reference)
  }

  private mutating func flush() {
    guard !literal.isEmpty else { return }
    segments.append(.literal(String(decoding: literal, as: UTF8.self)))
    literal.removeAll(keepingCapacity: true)
  }

  mutating func finish() -> [ValueSegment] {
    flush()
    return segments
  }
}
