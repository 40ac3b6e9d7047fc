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
}
