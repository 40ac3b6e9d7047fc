import Foundation

/// Cuts a body into lines as its pieces arrive, wherever the pieces break: a line split over
/// two pieces is joined, and `CR LF` split between them is one line end. A line longer than
/// `maxLength` bytes is never held whole: it is told as ``Line/overlong`` once, and its
/// bytes are skipped to its end, so memory stays bounded by the limit whatever the server
/// sends.
struct LineSplitter {
  /// What a line end is: `LF` (a `CR` before it dropped), or — for server-sent events — also
  /// `CR` alone.
  let endsOnCR: Bool
  /// Longest line kept, in bytes, its end not counted.
  let maxLength: Int
  /// The start of a line whose end has not arrived yet.
  private var partial: [UInt8] = []
  /// The last piece ended with a `CR` that ended a line: an `LF` first in the next belongs
  /// to it.
  private var afterCR = false
  /// The line under way is over the limit: its bytes are dropped up to its end.
  private var skipping = false

  init(endsOnCR: Bool, maxLength: Int) {
    (self.endsOnCR, self.maxLength) = (endsOnCR, max(1, maxLength))
  }

  /// Stands in while a splitter is taken out of its owner.
  static var placeholder: LineSplitter { LineSplitter(endsOnCR: false, maxLength: 1) }

  enum Line {
    /// A whole line, its end not included; valid only during the call.
    case text(UnsafeRawBufferPointer)
    /// A line over the limit (told once, when it passes it).
    case overlong
  }

  /// The lines `piece` ends, in order.
  mutating func feed(_ piece: Data, _ line: (Line) throws -> Void) rethrows {
    try piece.withUnsafeBytes { bytes in
      var (index, start) = (0, 0)
      if afterCR, bytes.first == 0x0A { (index, start) = (1, 1) }
      afterCR = false
      // Where the next `CR` is, looked up once per `CR` passed: a piece without one is
      // searched once, not once per line.
      var nextCR = -1
      while index < bytes.count {
        index = Self.position(of: 0x0A, in: bytes, from: index)
        if endsOnCR {
          if nextCR < start { nextCR = Self.position(of: 0x0D, in: bytes, from: start) }
          index = min(index, nextCR)
        }
        guard index < bytes.count else { break }
        let byte = bytes[index]
        var end = index
        if byte == 0x0D {
          // `CR LF` is one end; the `LF` may come with the next piece.
          if index + 1 < bytes.count {
            if bytes[index + 1] == 0x0A { index += 1 }
          } else {
            afterCR = true
          }
        } else if !endsOnCR, end > start ? bytes[end - 1] == 0x0D : partial.last == 0x0D {
          if end > start { end -= 1 } else { partial.removeLast() }
        }
        try finishLine(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), line)
        index += 1
        start = index
      }
      try keep(UnsafeRawBufferPointer(rebasing: bytes[start...]), line)
    }
  }

  /// Where the first `byte` at or after `start` is in `bytes`; `bytes.count` when none is.
  private static func position(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int)
    -> Int
  {
    guard start < bytes.count, let base = bytes.baseAddress,
      let found = memchr(base + start, Int32(byte), bytes.count - start)
    else { return bytes.count }
    return UnsafeRawPointer(found) - base
  }

  /// The bytes after the last line end, when the body ends: a last line without an end of
  /// its own (nil when there are none, or the line was over the limit).
  mutating func remainder() -> [UInt8]? {
    defer { reset() }
    guard !skipping, !partial.isEmpty else { return nil }
    if !endsOnCR, partial.last == 0x0D { partial.removeLast() }
    return partial
  }

  /// Forgets a line under way (a connection that ended).
  mutating func reset() {
    partial.removeAll(keepingCapacity: partial.count <= 64 * 1024)
    (afterCR, skipping) = (false, false)
  }

  private mutating func finishLine(_ tail: UnsafeRawBufferPointer, _ line: (Line) throws -> Void)
    rethrows
  {
    defer { skipping = false }
    if skipping { return }
    if partial.isEmpty {
      guard tail.count <= maxLength else { return try line(.overlong) }
      return try line(.text(tail))
    }
    guard partial.count + tail.count <= maxLength else {
      partial.removeAll()
      return try line(.overlong)
    }
    partial.append(contentsOf: tail)
    defer { partial.removeAll(keepingCapacity: partial.count <= 64 * 1024) }
    try partial.withUnsafeBytes { try line(.text($0)) }
  }

  /// Holds the start of a line until its end comes, unless it is already over the limit.
  private mutating func keep(_ bytes: UnsafeRawBufferPointer, _ line: (Line) throws -> Void)
    rethrows
  {
    guard !skipping, !bytes.isEmpty else { return }
    guard partial.count + bytes.count <= maxLength else {
      partial.removeAll()
      skipping = true
      return try line(.overlong)
    }
    partial.append(contentsOf: bytes)
  }
}
