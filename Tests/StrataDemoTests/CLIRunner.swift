import Dispatch
import Foundation
import Strata
import StrataSandbox
import Testing

/// Runs the built `strata-demo` binary with a private HOME / XDG_CONFIG_HOME. The blocking
/// work (pipes, waiting for exit) happens on GCD threads, never on the concurrency pool.
struct CLIRunner: Sendable {
  struct Result: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String
    /// The child's peak resident set size (VmHWM, sampled every 10 ms while it ran).
    let peakResidentBytes: Int
    var all: String { stdout + stderr }
  }

  let home: String

  init() throws {
    home = NSTemporaryDirectory() + "strata-cli-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
  }

  /// The session file for the API at `api` (one file per origin).
  func credentialsPath(for api: URL) -> String {
    let origin = Origin(api)
    return home + "/config/strata-demo/sessions/"
      + "\(origin?.scheme ?? "")_\(origin?.host ?? "")_\(origin?.port ?? 0).json"
  }

  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The `strata-demo` binary.
  static let binary = built("strata-demo")

  /// A built product: next to the test bundle (how `swift test` lays out products), else
  /// `.build/debug`.
  static func built(_ name: String) -> String {
    var candidates: [String] = []
    if let first = CommandLine.arguments.first {
      candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent().path + "/" + name)
    }
    candidates.append(packageRoot.path + "/.build/debug/" + name)
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last
      ?? name
  }

  /// The program run: `strata-demo` unless given.
  var executable = CLIRunner.binary
  /// Variables set for the child on top of the runner's own.
  var extraEnvironment: [String: String] = [:]

  var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("STRATA_") }
    environment["HOME"] = home
    environment["XDG_CONFIG_HOME"] = home + "/config"
    environment["XDG_DATA_HOME"] = home + "/.local/share"
    environment["XDG_CACHE_HOME"] = home + "/.cache"
    environment.removeValue(forKey: "LOG_LEVEL")
    environment["LC_ALL"] = "C.UTF-8"  // English sentences, whatever the machine's locale
    environment.merge(extraEnvironment) { _, extra in extra }
    return environment
  }

  /// Runs the binary; `directory` is the working directory (default: the package root).
  func run(_ arguments: [String], in directory: URL? = nil, timeout: TimeInterval = 300)
    async throws -> Result
  {
    let environment = self.environment
    let executable = self.executable
    return try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        do {
          continuation.resume(
            returning: try Self.runBlocking(
              executable, arguments, environment: environment,
              directory: directory ?? Self.packageRoot,
              timeout: timeout))
        } catch {
          continuation.resume(throwing: error)
        }
      }
    }
  }

  private static func runBlocking(
    _ executable: String, _ arguments: [String], environment: [String: String], directory: URL,
    timeout: TimeInterval
  ) throws
    -> Result
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try CLIRunner.spawn(process)
    let peak = PeakSampler(pid: process.processIdentifier)
    let timer = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
    let group = DispatchGroup()
    let errorBox = DataBox()
    group.enter()
    DispatchQueue.global().async {
      errorBox.data = errors.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    // Closed now, not left to the pipes: the `Process` keeps its pipes, a read end each, long
    // after the child is gone, and a suite that starts hundreds of processes then held 1,400
    // descriptors at once — past which `Process.run()` itself crashes on Linux (see `spawn`).
    try? output.fileHandleForReading.close()
    try? errors.fileHandleForReading.close()
    process.waitUntilExit()
    timer.cancel()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
      stderr: String(decoding: errorBox.data, as: UTF8.self), peakResidentBytes: peak.stop())
  }

  /// Samples a child's VmHWM from /proc on a thread of its own until stopped.
  private final class PeakSampler: @unchecked Sendable {
    // `peak` and `running` are guarded by `lock`.
    private let lock = NSLock()
    private var peak = 0
    private var running = true

    init(pid: Int32) {
      let thread = Thread { [self] in
        while lock.withLock({ running }) {
          if let kilobytes = Self.highWaterMark(pid) {
            lock.withLock { peak = max(peak, kilobytes * 1024) }
          }
          Thread.sleep(forTimeInterval: 0.01)
        }
      }
      thread.start()
    }

    func stop() -> Int {
      lock.withLock {
        running = false
        return peak
      }
    }

    /// The child's `VmHWM` (Linux only: elsewhere nil, and the peak stays 0 — unmeasured).
    static func highWaterMark(_ pid: Int32) -> Int? {
      #if os(Linux)
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
      #else
        return nil
      #endif
    }
  }

  /// Starts `process`, one spawn at a time across the whole suite: Foundation's
  /// `Process.run()` on Linux crashed (a bad memcpy inside it) when several tests spawned at
  /// once. Every test that starts a process goes through here.
  ///
  /// Every descriptor the test process holds is made close-on-exec first, so a child inherits
  /// only its own standard streams (which `Process` duplicates into place): a long-running
  /// child (`events`, `sandbox serve`) that inherited the write end of another test's pipe
  /// kept that test's read waiting for an end of file until it was itself stopped — and the
  /// suite hung now and then when two such waits met.
  static func spawn(_ process: Process) throws {
    _ = roomAfterDirectoryBuffers
    try spawnLock.withLock {
      closeOnExec()
      try process.run()
    }
  }

  /// Sets `FD_CLOEXEC` on every open descriptor above the standard three.
  private static func closeOnExec() {
    #if os(Linux)
      guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
      else { return }
      for fd in entries.compactMap({ Int32($0) }) where fd > 2 {
        let flags = fcntl(fd, F_GETFD)
        if flags >= 0, flags & FD_CLOEXEC == 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
      }
    #endif
  }

  /// `Process.run()` on Linux lists `/proc/self/fd` and copies all 256 bytes of each entry's
  /// name though glibc's entries are shorter: when the last one ends its directory buffer and
  /// the next page is not mapped, the test process dies (a SIGSEGV inside `Process.run`;
  /// swift-corelibs-foundation #5472, fixed after this toolchain). The buffer (32 KiB) fills
  /// only past ~1,350 open descriptors, so the real guard is that the suite never holds that
  /// many (each run closes its pipes' read ends: a full run peaks near 600). Besides, from the
  /// first spawn on, blocks of 16 KiB and more are mapped on their own where a new block is
  /// needed, leaving room after the buffer — not where malloc reuses freed heap, which is why
  /// this alone did not hold.
  private static let roomAfterDirectoryBuffers: Void = {
    #if canImport(Glibc)
      typealias SetOption = @convention(c) (Int32, Int32) -> Int32
      let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in <malloc.h>, which Swift does not import
      if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
        _ = unsafeBitCast(symbol, to: SetOption.self)(mmapThreshold, 16 << 10)
      }
    #endif
  }()

  private static let spawnLock = NSLock()

  private final class DataBox: @unchecked Sendable {
    // Written by one GCD block before `group.leave()`, read after `group.wait()`.
    var data = Data()
  }
}

extension CLIRunner {
  /// A started sandbox, a CLI with a home of its own, and the arguments that point it there
  /// (`extra` after them); both are stopped and removed however `body` ends.
  static func withSandbox(
    _ extra: [String] = [], configuration: SandboxServer.Configuration = .init(),
    _ body: (SandboxServer, CLIRunner, _ api: [String]) async throws -> Void
  ) async throws {
    let server = SandboxServer(configuration: configuration)
    try server.start()
    defer { server.stopAndWait() }
    let cli = try CLIRunner()
    defer { try? FileManager.default.removeItem(atPath: cli.home) }
    try await body(server, cli, ["--api", server.baseURL.absoluteString] + extra)
  }
}
