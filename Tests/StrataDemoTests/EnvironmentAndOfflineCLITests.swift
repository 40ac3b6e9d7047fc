import Foundation
import Testing

@testable import strata_demo

@Suite("strata-demo: environments and offline")
struct EnvironmentAndOfflineCLITests {
  /// Only the loopback: no default route and no directly connected network.
  static let noRoute =
    "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
    + "lo\t0000007F\t00000000\t0001\t0\t0\t0\t000000FF\t0\t0\t0\n"

  @Test func configShowNamesTheEnvironmentAndItsDefaults() async throws {
    let cli = try CLIRunner()
    let debug = try await cli.run(["config", "show"])
    #expect(debug.status == 0)
    #expect(debug.stdout.contains("ENVIRONMENT"), "\(debug.stdout)")
    #expect(
      debug.stdout.range(of: #"ENVIRONMENT\s+debug\s+default"#, options: .regularExpression) != nil)

    let testing = try await cli.run(["--set", "ENVIRONMENT=testing", "config", "show"])
    #expect(
      testing.stdout.range(of: #"LOG_LEVEL\s+warning\s+default"#, options: .regularExpression)
        != nil)
    #expect(
      testing.stdout.range(of: #"RETRY_MAX_RETRIES\s+1\s+default"#, options: .regularExpression)
        != nil)

    let file = try await cli.run(["--config", "Config/Testing.xcconfig", "config", "show"])
    #expect(
      file.stdout.range(
        of: #"ENVIRONMENT\s+testing\s+Config/Testing.xcconfig:5"#, options: .regularExpression)
        != nil, "\(file.stdout)")

    let production = try await cli.run(["--set", "ENVIRONMENT=production", "config", "show"])
    #expect(production.stdout.contains("https://dummyjson.com"))

    let bad = try await cli.run(["--set", "ENVIRONMENT=staging", "config", "show"])
    #expect(bad.status == 78)
    #expect(bad.stderr.contains("ENVIRONMENT: expected one of debug, testing, production"))
  }

  /// The tour also keeps its changes in a store of its own: in the app's cache directory while
  /// it runs, never in the temporary directory every local user shares (here `TMPDIR` names a
  /// file, so anything put there fails), and gone after.
  @Test func theTourShowsTheEnvironment() async throws {
    var cli = try CLIRunner()
    defer { try? FileManager.default.removeItem(atPath: cli.home) }
    let notADirectory = cli.home + "/shared-tmp"
    #expect(FileManager.default.createFile(atPath: notADirectory, contents: Data()))
    cli.extraEnvironment["TMPDIR"] = notADirectory
    let result = try await cli.run(["tour"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("environment: debug"), "\(result.stdout.prefix(600))")
    let cache =
      (try? FileManager.default.contentsOfDirectory(atPath: cli.home + "/.cache/strata-demo")) ?? []
    #expect(!cache.contains { $0.hasPrefix("tour-") }, "\(cache)")
  }

  /// With the route table saying "no default route", a call to a remote API fails at once:
  /// nothing is sent (no attempt, so no DNS lookup), nothing retried (production's policy
  /// would wait 1 + 2 + 4 s), one line, exit 1. How fast the whole process is (about 50 ms)
  /// is `make bench`'s "CLI offline exit" row: a timed test would measure the machine's load.
  @Test(.enabled(if: routeTableDecidesConnectivity, "NWPathMonitor, not ROUTE_TABLE, decides here"))
  func offlineEndsAtOnceWithOneLine() async throws {
    // The IPv6 table is read beside the IPv4 one: an empty one, so neither has a route.
    let folder = NSTemporaryDirectory() + "strata-route-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let table = folder + "/route"
    try Self.noRoute.write(toFile: table, atomically: true, encoding: .utf8)
    try "".write(toFile: folder + "/ipv6_route", atomically: true, encoding: .utf8)
    let result = try await CLIRunner().run(
      [
        "--set", "ENVIRONMENT=production", "--set", "ROUTE_TABLE=\(table)", "--log-level",
        "debug", "users",
      ], timeout: 300)
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.last == "strata-demo: offline: no network route")
    #expect(lines.filter { $0.contains("offline (no network route); not sent") }.count == 1)
    #expect(!result.stderr.contains("retry"), "nothing was retried")
    #expect(!result.stderr.contains("→ GET"), "no attempt was made")
  }
}

/// Whether `ROUTE_TABLE` decides connectivity (Linux); Apple platforms ask `NWPathMonitor`.
let routeTableDecidesConnectivity: Bool = {
  #if os(Linux)
    true
  #else
    false
  #endif
}()
