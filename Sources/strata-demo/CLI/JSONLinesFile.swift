import DemoKit
import Foundation
import Strata

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--http-log FILE` (one line per HTTP attempt, as each ends; a record holds no header, body
/// or secret) and `--analytics-log FILE` (one line per event): JSON lines written to a path
/// that is opened and written, never replaced: a regular file is truncated (created 0600), a
/// device such as `/dev/null` or `/dev/stderr` (a link to one too) is written to, and anything
/// else is refused — a directory, a FIFO, a socket, and a file reached through a link,
/// symbolic or hard (one planted at the path would have its target truncated).
final class JSONLinesFile: Sendable {
  private struct Output {
    let fd: Int32
    let encoder: JSONEncoder
    /// The first write that failed (a full disk), and how many lines were lost since.
    var failure: Int32?
    var lost = 0
  }
  private let output: Locked<Output>
  private let path: String
  private let name: String

  /// Opens the log (named `name` in errors) before anything is sent. Throws ``CantCreate``
  /// (exit 73).
  init(path: String, name: String = Localized.current("log.http")) throws {
    let refuse = { (reason: String) in
      CantCreate(
        Localized.current(
          "log.cannotWrite", ["log": name, "path": Invocation.quoted(path), "reason": reason]))
    }
    let fd = try Self.openForWriting(path, refuse)
    var status = stat()
    let kind = fstat(fd, &status) == 0 ? status.st_mode & S_IFMT : 0
    let reason: String? =
      switch kind {
      case S_IFCHR: nil
      case S_IFREG where status.st_nlink > 1: Localized.current("log.aLink")
      case S_IFREG: nil
      default: Localized.current("log.notAFile")
      }
    if let reason {
      close(fd)
      throw refuse(reason)
    }
    if kind == S_IFREG { _ = ftruncate(fd, 0) }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    output = Locked(Output(fd: fd, encoder: encoder))
    (self.path, self.name) = (path, name)
  }

  /// The path opened for writing: never through a symbolic link, unless it leads to a device
  /// (`/dev/stderr` is one), and then without creating anything. O_NONBLOCK: opening a FIFO
  /// for writing with no reader would otherwise wait forever.
  private static func openForWriting(_ path: String, _ refuse: (String) -> CantCreate) throws
    -> Int32
  {
    let fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
    if fd >= 0 { return fd }
    guard errno == ELOOP else { throw refuse(String(cString: strerror(errno))) }
    let followed = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC, 0)
    guard followed >= 0 else { throw refuse(String(cString: strerror(errno))) }
    var status = stat()
    guard fstat(followed, &status) == 0, status.st_mode & S_IFMT == S_IFCHR else {
      close(followed)
      throw refuse(Localized.current("log.aLink"))
    }
    return followed
  }

  deinit { output.withLock { _ = close($0.fd) } }

  /// Writes each record as a line (a `CallObserver`'s closure).
  var sink: @Sendable (RequestRecord) -> Void { { [self] record in write(record) } }

  func write(_ value: some Encodable) {
    output.withLock { output in
      guard var line = try? output.encoder.encode(value) else { return }
      line.append(UInt8(ascii: "\n"))
      guard !Terminal.writeAll(output.fd, Array(line)) else { return }
      output.failure = output.failure ?? errno
      output.lost += 1
    }
  }

  /// What went wrong writing, when something did: a full disk must not look like a log of
  /// nothing (the command ends with exit 73 and this line).
  var problem: String? {
    output.withLock { output in
      output.failure.map { code in
        let text = Localized.current
        return text(
          "log.lost",
          [
            "log": name, "path": Invocation.quoted(path),
            "reason": String(cString: strerror(code)),
            "lost": text.plural("log.lines", count: output.lost),
          ])
      }
    }
  }
}

/// An output file that cannot be created or written (exit status 73, EX_CANTCREAT).
struct CantCreate: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Analytics events as JSON lines: `{"event":"post_created","properties":{"offline":false,…}}`.
struct AnalyticsLog: Analytics {
  private struct Line: Encodable {
    let event: String
    let properties: [String: AnalyticsValue]
  }

  let file: JSONLinesFile

  func track(_ event: String, _ properties: [String: AnalyticsValue]) {
    file.write(Line(event: event, properties: properties))
  }
}
