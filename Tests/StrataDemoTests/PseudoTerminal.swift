import Dispatch
import Foundation
import StrataConcurrency
import Testing

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Runs the built binary with stderr (and, if asked, stdin) on a new pseudo-terminal, as a
/// person at a terminal would: `answers` are typed once the terminal shows their prompt.
/// Blocking work runs on GCD threads, never on the concurrency pool.
enum PseudoTerminal {
  struct Run: Sendable {
    let status: Int32
    /// Everything the terminal showed (stderr, and the echo of what was typed).
    let shown: String
  }

  static func run(
    _ cli: CLIRunner, _ arguments: [String], stdinOnTerminal: Bool = false,
    answers: [(prompt: String, typed: String)] = []
  ) async throws -> Run {
    #if canImport(Darwin)
      let master = posix_openpt(O_RDWR | O_NOCTTY)
      try #require(master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0)
      let name = try #require(ptsname(master).map { String(cString: $0) })
      let slave = open(name, O_RDWR | O_NOCTTY)
    #else
      // posix_openpt and friends are not in Swift's Glibc module: the same with /dev/ptmx and
      // Linux's ioctls (TIOCSPTLCK unlocks the other end, TIOCGPTN numbers it).
      let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
      try #require(master >= 0)
      var unlock: Int32 = 0
      var number: UInt32 = 0
      try #require(
        ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0)
      let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
    #endif
    try #require(slave >= 0)
    let shown = Lock((data: Data(), answered: 0))
    let environment = cli.environment
    return try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        let reader = DispatchGroup()
        reader.enter()
        DispatchQueue.global().async {
          var buffer = [UInt8](repeating: 0, count: 4096)
          // EIO once the last holder of the terminal's other end has gone.
          while case let count = read(master, &buffer, buffer.count), count > 0 {
            let typed = shown.withLock { state -> String? in
              state.data.append(contentsOf: buffer[..<count])
              guard state.answered < answers.count else { return nil }
              let text = String(decoding: state.data, as: UTF8.self)
              guard text.contains(answers[state.answered].prompt) else { return nil }
              state.data.append(contentsOf: Array("⟨typed⟩".utf8))
              state.answered += 1
              return answers[state.answered - 1].typed
            }
            if let typed { _ = write(master, typed, typed.utf8.count) }
          }
          reader.leave()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLIRunner.binary)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardError = terminal
        process.standardInput = stdinOnTerminal ? terminal : FileHandle.nullDevice
        do {
          try CLIRunner.spawn(process)
        } catch {
          continuation.resume(throwing: error)
          return
        }
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 300, execute: killer)  // hang guard
        process.waitUntilExit()
        killer.cancel()
        close(slave)
        _ = reader.wait(timeout: .now() + 300)  // hang guard: the reader drains what is left
        close(master)
        continuation.resume(
          returning: Run(
            status: process.terminationStatus,
            shown: String(decoding: shown.withLock { $0.data }, as: UTF8.self)))
      }
    }
  }
}
