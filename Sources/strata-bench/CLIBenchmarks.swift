import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `strata-demo` binary as a user runs it (`make bench` builds it next to this one).
enum CLIBenchmarks {
  /// How long `strata-demo users` takes to fail when the route table says there is no network
  /// route: the whole process, start to exit (median of 9 runs).
  static func offlineExit() throws -> BenchmarkResult? {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let binary = directory.appendingPathComponent("strata-demo").path
    guard FileManager.default.isExecutableFile(atPath: binary) else { return nil }
    let table = NSTemporaryDirectory() + "strata-bench-route-\(UUID().uuidString)"
    try "Iface\tDestination\tGateway \tFlags\n".write(
      toFile: table, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: table) }
    var times: [Double] = []
    let arguments = [
      binary, "--set", "ENVIRONMENT=production", "--set", "ROUTE_TABLE=\(table)", "--log-level",
      "critical", "users",
    ]
    for _ in 0..<9 {
      // posix_spawn + waitpid: Foundation's Process.waitUntilExit polls every 50 ms on Linux,
      // which would be most of what this measures.
      var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
      defer { for pointer in argv { free(pointer) } }
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
      var pid: pid_t = 0
      let started = ContinuousClock.now
      guard posix_spawn(&pid, binary, &actions, nil, &argv, environ) == 0 else { return nil }
      var status: Int32 = 0
      waitpid(pid, &status, 0)
      let elapsed = ContinuousClock.now - started
      guard (status >> 8) & 0xff == 1 else { return nil }  // exit 1: "offline"
      times.append(
        Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    times.sort()
    return BenchmarkResult(
      name: "CLI offline exit", compares: "strata-demo users with no network route, start to exit",
      value: times[times.count / 2], unit: "ms", target: "≤ 100")
  }
}
