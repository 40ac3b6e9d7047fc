import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Lines appended beside a ``DocumentFile`` between two saves of it: each sync outcome is
/// written here before the next change is sent (one small `write`, kept by the system even if
/// the process is killed), and the document is saved whole once at the end. Loading applies
/// the complete lines and drops a last one cut short by a crash.
struct OutcomeLog<Line: Codable>: Sendable {
  let path: String

  /// Appends one line (JSON, newline-terminated).
  func append(_ line: Line) throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .millisecondsSince1970
    var data = try encoder.encode(line)
    data.append(UInt8(ascii: "\n"))
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw DocumentFile<Int>.Failure.io(path: path, operation: "open", errno: errno)
    }
    defer { close(fd) }
    guard FileDescriptor.writeAll(fd, data) else {
      throw DocumentFile<Int>.Failure.io(path: path, operation: "write", errno: errno)
    }
  }

  /// The complete lines, in order (none when there is no log).
  func lines() throws -> [Line] {
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .millisecondsSince1970
    var lines: [Line] = []
    for chunk in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
      // A line the crash cut short does not decode: it and anything after it never happened.
      guard let line = try? decoder.decode(Line.self, from: Data(chunk)) else { break }
      lines.append(line)
    }
    return lines
  }

  /// Forgets the lines (after the document that includes them was saved).
  func remove() { unlink(path) }
}
