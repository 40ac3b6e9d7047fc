import DemoKit
import Foundation
import Strata

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The CLI's only writers: stdout for results, stderr for errors and progress. Unbuffered, so
/// a parent process reading a pipe sees each line as it is written.
enum Terminal {
  /// Where lines go instead of stdout/stderr, for in-process tests (`true` marks stderr).
  @TaskLocal static var sink: (@Sendable (String, Bool) -> Void)?

  /// One line from standard input, read byte by byte so that nothing past its newline is
  /// consumed and at most `limit` bytes are ever held (a password piped in, not a file: 3 GB
  /// piped in used to be read whole). A trailing `\r` is dropped.
  /// - Throws: `CommandFailure` when stdin is empty, or the line is longer than `limit`.
  static func readSecretLine(limit: Int) throws -> String {
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let count = read(0, &byte, 1)
      if count < 0, errno == EINTR { continue }
      guard count == 1, byte != UInt8(ascii: "\n") else { break }
      guard line.count < limit else {
        throw CommandFailure(Localized.current("error.passwordTooLong", ["limit": String(limit)]))
      }
      line.append(byte)
    }
    if line.last == UInt8(ascii: "\r") { line.removeLast() }
    guard !line.isEmpty else { throw CommandFailure(Localized.current("error.noPassword")) }
    return String(decoding: line, as: UTF8.self)
  }

  /// `text` with what would drive the terminal shown instead of obeyed: escape sequences
  /// (ESC, which starts a title change or a colour), BEL, other C0 and C1 controls and the
  /// bidirectional overrides become `\u{…}`. What the user typed (an unknown command, a
  /// title echoed back) passes through here as server text passes through UntrustedText.
  /// Newlines and tabs stay: tables and multi-line help are made of them.
  static func printable(_ text: String) -> String {
    func drives(_ scalar: Unicode.Scalar) -> Bool {
      switch scalar.value {
      case 0x0A, 0x09: false
      case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
        true
      default: false
      }
    }
    guard text.unicodeScalars.contains(where: drives) else { return text }
    var shown = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if drives(scalar) {
        shown.append(
          contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
      } else {
        shown.append(scalar)
      }
    }
    return String(shown)
  }

  /// Writes every byte to `fd`, resuming after partial writes and `EINTR`. One `write(2)` per
  /// call when it can, so concurrent lines do not interleave.
  /// - Returns: False if the descriptor refused (closed pipe, full disk, …); `errno` says why.
  @discardableResult
  static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        let written = write(fd, base + offset, buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return false }
        offset += written
      }
      return true
    }
  }

  /// Writes a result line; every secret the process holds is masked (``KnownSecrets``).
  /// A reader that went away (EPIPE) ends the process by SIGPIPE, as it ends `cat`: exit 141.
  /// Any other write error (a full disk, a closed stdout) is one line on stderr and exit 74.
  static func out(_ text: String = "") {
    let text = KnownSecrets.mask(printable(text))
    if let sink { return sink(text, false) }
    guard Terminal.writeAll(1, Array((text + "\n").utf8)) else {
      let failure = errno
      if failure == EPIPE {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
      }
      let reason = String(cString: strerror(failure))
      error("strata-demo: " + Localized.current("error.cannotWrite", ["reason": reason]))
      exit(ExitStatus.ioError.rawValue)
    }
  }

  /// Writes an error or progress line, secrets masked. A failure to write it is ignored:
  /// there is nowhere left to report it.
  static func error(_ text: String) {
    let text = KnownSecrets.mask(printable(text))
    if let sink { return sink(text, true) }
    Terminal.writeAll(2, Array((text + "\n").utf8))
  }

  /// Gives each closed standard descriptor (0, 1, 2) a read-only `/dev/null`: otherwise the
  /// next file opened (a store, a socket) would get descriptor 1 and receive the output.
  /// Writes to a read-only descriptor fail (EBADF), which `out` reports as exit 74.
  static func occupyClosedStandardDescriptors() {
    for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 {
      let opened = open("/dev/null", O_RDONLY)
      if opened >= 0, opened != fd { close(opened) }
    }
  }

  static var inputIsTerminal: Bool { isatty(0) == 1 }
  static var errorIsTerminal: Bool { isatty(2) == 1 }

  /// Asks for a line on the terminal.
  static func prompt(_ question: String) -> String? {
    Terminal.writeAll(2, Array(question.utf8))
    return readLine(strippingNewline: true)
  }

  /// Asks for a secret without echoing it. The terminal's settings come back on every way
  /// out: the answer, end of input, or a signal (Ctrl-C, Ctrl-\\, hang-up, kill), after which
  /// the process exits with 128 + the signal's number, as a shell would report it.
  static func promptSecret(_ question: String) -> String? {
    var settings = termios()
    guard tcgetattr(0, &settings) == 0 else { return prompt(question) }
    let saved = settings
    let restore: @Sendable () -> Void = {
      var original = saved
      tcsetattr(0, TCSANOW, &original)
    }
    let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    let watchers = signals.map { number -> any DispatchSourceSignal in
      signal(number, SIG_IGN)  // delivered to the source below instead
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        restore()
        Terminal.writeAll(2, Array("\n".utf8))
        exit(128 + number)
      }
      source.resume()
      return source
    }
    settings.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(0, TCSANOW, &settings)
    defer {
      restore()
      for watcher in watchers { watcher.cancel() }
      for number in signals { signal(number, SIG_DFL) }
      Terminal.writeAll(2, Array("\n".utf8))
    }
    return prompt(question)
  }
}
