import Foundation

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
    for _ in 0..<9 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: binary)
      process.arguments = [
        "--set", "ENVIRONMENT=production", "--set", "ROUTE_TABLE=\(table)", "--log-level",
        "critical", "users",
      ]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      let started = ContinuousClock.now
      try process.run()
      process.waitUntilExit()
      let elapsed = ContinuousClock.now - started
      guard process.terminationStatus == 1 else { return nil }
      times.append(
        Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    times.sort()
    return BenchmarkResult(
      name: "CLI offline exit", compares: "strata-demo users with no network route, start to exit",
      value: times[times.count / 2], unit: "ms", target: "≤ 100")
  }
}
