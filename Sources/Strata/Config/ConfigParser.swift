import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reads xcconfig-style files into an ordered list of assignments, following `#include`s.
///
/// Lines are split on LF, CRLF and CR at the byte level (those bytes never occur inside a
/// multi-byte UTF-8 sequence), a leading UTF-8 BOM is skipped, and each line is checked to be
/// UTF-8 and scanned in place (columns count scalars, so they are exact).
struct ConfigParser {
  /// How deep includes may nest before the parser gives up (guards against runaway chains).
  var maxIncludeDepth = 32
  /// The largest file read, in bytes: a configuration file is a few kilobytes; a larger one
  /// is a mistake (or an attack) and is refused before it is read whole.
  var maxFileSize = 4 << 20
  /// How many `#include`s one load follows, and how many bytes it reads in all. Depth and
  /// cycles are checked separately; these bound a fan-out (each file including the next ten
  /// times is 10⁶ includes at depth 6).
  var maxIncludes = 256
  var maxTotalBytes = 16 << 20
  /// Reads at most `limit` bytes of a file (nil: it cannot be read); injectable so tests can
  /// parse without touching disk.
  var readFile: @Sendable (_ path: String, _ limit: Int) -> [UInt8]? = { path, limit in
    // A regular-file check on the open descriptor: a FIFO put in the file's place after it
    // was checked must not block the read for ever.
    guard let fd = try? PrivateFile.openUserFile(path) else { return nil }
    let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    defer { try? handle.close() }
    do {
      return [UInt8](try handle.read(upToCount: limit) ?? Data())  // nil: an empty file
    } catch {
      return nil
    }
  }

  private var includesFollowed = 0
  private var bytesRead = 0

  /// Optional includes that were absent (reported for diagnostics, not an error).
  private(set) var skippedIncludes: [SourceLocation] = []

  // MARK: Entry points

  /// Parses the file at `path` and everything it includes.
  mutating func parse(fileAt path: String) throws -> [ConfigAssignment] {
    guard let bytes = try read(path, at: nil) else {
      throw ConfigError(
        .unreadableFile(path: path), at: nil,
        "cannot read configuration file '\(path)': check the path (--config) and permissions")
    }
    var output: [ConfigAssignment] = []
    try parse(bytes: bytes, name: path, chain: [Self.canonical(path)], names: [path], into: &output)
    return output
  }

  /// Parses in-memory text; includes resolve relative to `name`'s directory.
  mutating func parse(text: String, name: String) throws -> [ConfigAssignment] {
    var output: [ConfigAssignment] = []
    try parse(bytes: Array(text.utf8), name: name, chain: [], names: [], into: &output)
    return output
  }

  // MARK: Files and lines

  private mutating func parse(
    bytes: [UInt8], name: String, chain: [String], names: [String],
    into output: inout [ConfigAssignment]
  ) throws {
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var lineNumber = 0
    while start <= bytes.count {
      let end = LineScanner.firstIndex(in: bytes[...], from: start, before: bytes.count) {
        $0 == 0x0A || $0 == 0x0D
      }
      lineNumber += 1
      try Self.validate(bytes[start..<end], file: name, line: lineNumber)
      try parse(
        line: LineScanner(bytes[start..<end], file: name, line: lineNumber),
        chain: chain, names: names, into: &output)
      guard end < bytes.count else { break }
      let isCRLF = bytes[end] == 0x0D && end + 1 < bytes.count && bytes[end + 1] == 0x0A
      start = end + (isCRLF ? 2 : 1)
    }
  }

  private mutating func parse(
    line: LineScanner, chain: [String], names: [String], into output: inout [ConfigAssignment]
  ) throws {
    var scanner = line
    scanner.skipWhitespace()
    if scanner.isAtEnd || scanner.hasPrefix("//") { return }
    if scanner.hasPrefix("#include") {
      if let include = try Self.scanInclude(&scanner) {
        try self.include(include, from: scanner, chain: chain, names: names, into: &output)
        return
      }
    }
    if scanner.current == "#" { return }

    let keyStart = scanner.index
    guard let key = scanner.scanIdentifier() else {
      throw scanner.error(
        .invalidKey,
        "expected a key (letters, digits and '_', not starting with a digit) or a comment")
    }
    scanner.skipWhitespace()
    guard scanner.current == "=" else {
      if !scanner.isAtEnd {
        let found = scanner.scalar(at: scanner.index).escaped(asASCII: true)
        throw scanner.error(
          .expectedEquals, "expected '=' after key \(Config.quoted(key)), found '\(found)'")
      }
      throw scanner.error(.expectedEquals, "expected '=' after key \(Config.quoted(key))")
    }
    scanner.index += 1
    scanner.skipWhitespace()
    let segments = try scanner.scanValue()
    output.append(
      ConfigAssignment(key: key, segments: segments, location: scanner.location(keyStart)))
  }

  // MARK: Includes

  private struct Include {
    let path: String
    let isOptional: Bool
    let location: SourceLocation
  }

  /// Recognises `#include "path"` and `#include? "path"`. Returns nil when the line is merely
  /// a comment that starts with the same letters (such as `#included by …`).
  private static func scanInclude(_ scanner: inout LineScanner) throws -> Include? {
    let directive = scanner.index
    let afterWord = scanner.index + "#include".utf8.count
    if let next = scanner.peek(afterWord - scanner.index), LineScanner.isIdentifierBody(next) {
      return nil
    }
    scanner.index = afterWord
    let isOptional = scanner.current == "?"
    if isOptional { scanner.index += 1 }
    scanner.skipWhitespace()
    guard scanner.current == "\"" else {
      throw scanner.error(
        .malformedInclude, at: directive, "malformed include: write #include \"file.xcconfig\"")
    }
    let open = scanner.index
    scanner.index += 1
    while let scalar = scanner.current, scalar != "\"" { scanner.index += 1 }
    let path = String(decoding: scanner.bytes[(open + 1)..<scanner.index], as: UTF8.self)
    guard scanner.current == "\"" else {
      throw scanner.error(
        .unterminatedQuote, at: open, "unterminated include path: add a closing '\"'")
    }
    scanner.index += 1
    try scanner.expectOnlyComment(after: "include path")
    guard !path.isEmpty else {
      throw scanner.error(.malformedInclude, at: directive, "empty include path")
    }
    return Include(path: path, isOptional: isOptional, location: scanner.location(directive))
  }

  private mutating func include(
    _ include: Include, from scanner: LineScanner, chain: [String], names: [String],
    into output: inout [ConfigAssignment]
  ) throws {
    let path = Self.resolve(include.path, relativeTo: scanner.file)
    let canonical = Self.canonical(path)
    if chain.contains(canonical) {
      let cycle = names + [path]
      throw ConfigError(
        .includeCycle(chain: cycle), at: include.location,
        "include cycle: \(cycle.joined(separator: " → "))")
    }
    guard chain.count < maxIncludeDepth else {
      throw ConfigError(
        .malformedInclude, at: include.location,
        "includes nested more than \(maxIncludeDepth) deep")
    }
    includesFollowed += 1
    guard includesFollowed <= maxIncludes else {
      let limit = maxIncludes
      let error = ConfigError(
        .tooManyIncludes(limit: limit), at: include.location,
        "more than \(limit) includes in one configuration: include each file once")
      throw error
    }
    guard let bytes = try read(path, at: include.location) else {
      if include.isOptional {
        skippedIncludes.append(include.location)
        return
      }
      throw ConfigError(
        .includeNotFound(path: path), at: include.location,
        "included file '\(path)' not found: fix the path or use #include? for an optional file")
    }
    try parse(
      bytes: bytes, name: path, chain: chain + [canonical], names: names + [path], into: &output)
  }

  /// A file's bytes, within the per-file and per-load limits (nil: it cannot be read).
  private mutating func read(_ path: String, at location: SourceLocation?) throws -> [UInt8]? {
    var info = stat()
    if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
      // A FIFO would block the read for ever; a directory or a device is no configuration.
      let kind =
        switch info.st_mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a directory"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
      throw ConfigError(
        .unreadableFile(path: path), at: location,
        "configuration file '\(path)' is \(kind), not a regular file")
    }
    guard let bytes = readFile(path, maxFileSize + 1) else { return nil }
    guard bytes.count <= maxFileSize else {
      throw ConfigError(
        .fileTooLarge(path: path, limit: maxFileSize), at: location,
        "configuration file '\(path)' is over \(maxFileSize >> 20) MiB: is it the right file?")
    }
    bytesRead += bytes.count
    guard bytesRead <= maxTotalBytes else {
      throw ConfigError(
        .includesTooLarge(limit: maxTotalBytes), at: location,
        "the configuration and its includes are over \(maxTotalBytes >> 20) MiB in all")
    }
    return bytes
  }

  /// Include paths are relative to the including file's directory.
  static func resolve(_ path: String, relativeTo file: String) -> String {
    if path.hasPrefix("/") { return path }
    guard let slash = file.lastIndex(of: "/") else { return path }
    return String(file[...slash]) + path
  }

  static func canonical(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
  }

  // MARK: Decoding

  /// Checks that one line's bytes are UTF-8; an invalid sequence is an error at its column.
  static func validate(_ bytes: ArraySlice<UInt8>, file: String, line: Int) throws {
    guard let valid = UTF8.scalarsBeforeError(in: bytes) else { return }
    throw ConfigError(
      .invalidEncoding, at: SourceLocation(file: file, line: line, column: valid + 1),
      "invalid UTF-8: save the file as UTF-8")
  }
}
