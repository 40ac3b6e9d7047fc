import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The `strata-demo` binary as a user runs it (`make bench` builds it next to this one).
enum CLIBenchmarks {
  static var binary: String? {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let binary = directory.appendingPathComponent("strata-demo").path
    return FileManager.default.isExecutableFile(atPath: binary) ? binary : nil
  }

  /// Milliseconds from spawning `arguments` (the binary first) to its exit, median of `runs`;
  /// nil if it could not start or exited with another status than `status`.
  static func median(
    _ arguments: [String], status expected: Int32, runs: Int = 9,
    environment: [String: String] = [:]
  ) -> Double? {
    let environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    var times: [Double] = []
    for _ in 0..<runs {
      // posix_spawn + waitpid: Foundation's Process.waitUntilExit polls every 50 ms on Linux,
      // which would be most of what this measures.
      var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
      defer { for pointer in argv { free(pointer) } }
      // The environment as a C array: `environ` is not visible to Swift on Darwin.
      var envp: [UnsafeMutablePointer<CChar>?] =
        environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
      defer { for pointer in envp { free(pointer) } }
      // An opaque pointer on Darwin (starts nil), a struct in Glibc.
      #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
      #else
        var actions = posix_spawn_file_actions_t()
      #endif
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
      var pid: pid_t = 0
      let started = ContinuousClock.now
      guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp) == 0 else { return nil }
      var status: Int32 = 0
      waitpid(pid, &status, 0)
      let elapsed = ContinuousClock.now - started
      guard (status >> 8) & 0xff == expected else { return nil }
      times.append(
        Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    times.sort()
    return times[times.count / 2]
  }

  /// How long `strata-demo users` takes to fail when the route table says there is no network
  /// route: the whole process, start to exit (median of 9 runs).
  static func offlineExit() throws -> BenchmarkResult? {
    guard let binary else { return nil }
    let table = NSTemporaryDirectory() + "strata-bench-route-\(UUID().uuidString)"
    try "Iface\tDestination\tGateway \tFlags\n".write(
      toFile: table, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: table) }
    let arguments = [
      binary, "--set", "ENVIRONMENT=production", "--set", "ROUTE_TABLE=\(table)", "--log-level",
      "critical", "users",
    ]
    guard let median = median(arguments, status: 1) else { return nil }  // exit 1: "offline"
    return BenchmarkResult(
      name: "CLI offline exit", compares: "strata-demo users with no network route, start to exit",
      value: median, unit: "ms", target: "≤ 100")
  }
}
