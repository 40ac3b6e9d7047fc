import Dispatch
import Foundation
import StrataConcurrency
import StrataSandbox
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `sync` shows its progress on a terminal once it has run for a second; piped, it stays plain.
@Suite("strata-demo sync: progress on a terminal only")
struct SyncProgressCLITests {
  /// Runs the binary with stderr on a new pseudo-terminal; returns what the terminal showed.
  static func runOnTerminal(_ cli: CLIRunner, _ arguments: [String]) async throws -> String {
    // posix_openpt and friends are not in Swift's Glibc module: the same with /dev/ptmx and
    // Linux's ioctls (TIOCSPTLCK unlocks the other end, TIOCGPTN numbers it).
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    try #require(master >= 0)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    try #require(
      ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0)
    let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
    try #require(slave >= 0)
    let shown = Lock(Data())
    let environment = cli.environment
    return try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        let reader = DispatchGroup()
        reader.enter()
        DispatchQueue.global().async {
          var buffer = [UInt8](repeating: 0, count: 4096)
          // EIO once the last holder of the terminal's other end has gone.
          while case let count = read(master, &buffer, buffer.count), count > 0 {
            shown.withLock { $0.append(contentsOf: buffer[..<count]) }
          }
          reader.leave()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLIRunner.binary)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        do {
          try process.run()
        } catch {
          continuation.resume(throwing: error)
          return
        }
        process.waitUntilExit()
        close(slave)
        _ = reader.wait(timeout: .now() + 10)
        close(master)
        continuation.resume(returning: String(decoding: shown.withLock { $0 }, as: UTF8.self))
      }
    }
  }

  @Test func aSlowSyncShowsNOfNOnATerminalAndNothingWhenPiped() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      for title in ["One", "Two", "Three", "Four"] {
        _ = try await cli.run(
          api + ["post", "create", "--offline", "--title", title, "--body", "b"])
      }
      // Each send waits 1.5 s at the server: the sync runs well past a second however fast
      // the machine is.
      server.faults.add(
        .init(method: "POST", path: "/posts/add", count: 2, action: .delay(.milliseconds(1500))))
      let terminal = try await Self.runOnTerminal(cli, api + ["sync"])
      #expect(terminal.contains("sending 1 of 4: post.create "), "\(terminal)")
      server.faults.add(
        .init(method: "POST", path: "/posts/add", count: 2, action: .delay(.milliseconds(1500))))
      _ = try await cli.run(api + ["post", "create", "--offline", "--title", "5", "--body", "b"])
      _ = try await cli.run(api + ["post", "create", "--offline", "--title", "6", "--body", "b"])
      let piped = try await cli.run(api + ["sync"])
      #expect(piped.status == 0 && !piped.stderr.contains("sending"), "\(piped.stderr)")
    }
  }
}
