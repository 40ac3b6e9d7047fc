import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

@testable import strata_demo

@Suite("Secrets in a full tour")
struct TourSecretsTests {
  @MainActor
  @Test func wholeTourAtTraceLogsNoTokenAndNoPassword() async throws {
    let capture = CapturingLogSink()
    let lines = Lock<[String]>([])
    let previous = Log.levels
    defer {
      Log.levels = previous
      Log.bootstrap(sink: DiscardingLogSink())
    }
    let invocation = try CommandLineParser.parse(["tour"])
    let sink: @Sendable (String, Bool) -> Void = { line, _ in lines.withLock { $0.append(line) } }
    try await Terminal.$sink.withValue(sink) {
      try await Log.withScope(sink: capture, levels: .all) {
        try await TourCommand.run(invocation)
      }
    }
    let output = lines.withLock { $0.joined(separator: "\n") }
    #expect(output.contains("Tour complete"))
    #expect(
      capture.records(category: "networking", level: .trace).count > 20, "trace logging was on")
    #expect(capture.text.contains("Authorization"), "headers were logged (redacted)")
    let everything = output + "\n" + capture.text
    for secret in ["eyJhbGciOiJIUzI1NiIs", "emilyspass"] {
      #expect(!everything.contains(secret), "\(secret) appeared")
    }
  }
}
