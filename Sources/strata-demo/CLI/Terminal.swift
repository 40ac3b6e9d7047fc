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

  /// Writes a result line; every secret the process holds is masked (``KnownSecrets``).
  static func out(_ text: String = "") {
    let text = KnownSecrets.mask(text)
    if let sink { return sink(text, false) }
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  /// Writes an error or progress line, secrets masked.
  static func error(_ text: String) {
    let text = KnownSecrets.mask(text)
    if let sink { return sink(text, true) }
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
  static var inputIsTerminal: Bool { isatty(0) == 1 }
  static var errorIsTerminal: Bool { isatty(2) == 1 }

  /// Asks for a line on the terminal.
  static func prompt(_ question: String) -> String? {
    FileHandle.standardError.write(Data(question.utf8))
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
        FileHandle.standardError.write(Data("\n".utf8))
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
      FileHandle.standardError.write(Data("\n".utf8))
    }
    return prompt(question)
  }
}
