import Foundation
import Testing

/// A library is silent until the app sets up logging: a process that uses Strata without
/// `Log.bootstrap` writes nothing, at any level, from any layer.
@Suite("Silent until the app sets up logging")
struct LogSilenceTests {
  @Test func withoutBootstrapNothingIsWritten() async throws {
    var runner = try CLIRunner()
    runner.executable = CLIRunner.built("strata-log-probe")
    let result = try await runner.run([], timeout: 300)
    #expect(result.status == 0)
    #expect(result.stdout == "done\n")
    #expect(result.stderr.isEmpty, "wrote: \(result.stderr)")
  }

  /// The same calls do write once logging is set up, so the silence above is not an accident.
  @Test func afterBootstrapTheSameCallsWrite() async throws {
    var runner = try CLIRunner()
    runner.executable = CLIRunner.built("strata-log-probe")
    let result = try await runner.run(["--bootstrap"], timeout: 300)
    #expect(result.status == 0)
    for expected in ["probe critical", "probe trace", "retry 1/1", "signed out"] {
      #expect(result.stderr.contains(expected), "missing '\(expected)' in: \(result.stderr)")
    }
  }

  /// `LOG_FORMAT = json` in the configuration: every line on standard error is one JSON object.
  @Test func aConfigurationAskingForJSONGetsJSONLines() async throws {
    var runner = try CLIRunner()
    runner.executable = CLIRunner.built("strata-log-probe")
    let result = try await runner.run(["--json"], timeout: 300)
    #expect(result.status == 0)
    let objects = try result.stderr.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect(objects.count > 10 && objects.allSatisfy { $0?["message"] != nil }, "\(result.stderr)")
    #expect(objects.contains { $0?["message"] as? String == "hello <private>" })
  }
}
