import Foundation
import Strata
import StrataTesting
import Testing

/// Counts how often a message closure ran.
final class EvaluationCounter: @unchecked Sendable {
  // Only touched from the test's own task.
  var count = 0
  func next() -> String {
    count += 1
    return "evaluated \(count)"
  }
}

@Suite("Log levels and privacy")
struct LoggerTests {
  @Test func perCategoryLevelsFilter() async {
    let capture = CapturingLogSink()
    let levels = LogThresholds(global: .warning, categories: ["networking": .debug])
    await Log.withScope(sink: capture, levels: levels) {
      await Task.yield()
      Log.networking.trace("net trace")
      Log.networking.debug("net debug")
      Log.auth.info("auth info")
      Log.auth.warning("auth warning")
      Log.general.error("general error")
      Log.general.notice("general notice")
    }
    #expect(capture.messages == ["net debug", "auth warning", "general error"])
    #expect(capture.records(category: "auth").map(\.level) == [.warning])
  }

  @Test func isEnabledFollowsTheLevels() {
    Log.withScope(sink: CapturingLogSink(), levels: LogThresholds(global: .notice)) {
      #expect(!Log.general.isEnabled(.info))
      #expect(Log.general.isEnabled(.notice))
      #expect(Log.general.isEnabled(.critical))
    }
  }

  @Test func disabledMessagesAreNeverEvaluated() {
    let counter = EvaluationCounter()
    let capture = CapturingLogSink()
    Log.withScope(sink: capture, levels: LogThresholds(global: .info)) {
      Log.general.debug("\(counter.next())")
      Log.general.trace("\(counter.next())")
      #expect(counter.count == 0)
      Log.general.info("\(counter.next())")
    }
    #expect(counter.count == 1)
    #expect(capture.messages == ["evaluated 1"])
  }

  @Test func privateValuesAreHiddenUnlessRevealed() {
    let capture = CapturingLogSink()
    Log.withScope(sink: capture) {
      Log.auth.info("user \("emilys", privacy: .private) from \("cli", privacy: .public)")
    }
    #expect(capture.messages == ["user <private> from cli"])

    let revealed = CapturingLogSink()
    Log.withScope(sink: revealed, revealPrivate: true) {
      Log.auth.info("user \("emilys", privacy: .private)")
    }
    #expect(revealed.messages == ["user emilys"])
  }

  @Test func secretsAreRedactedEvenWhenRevealing() {
    let token = Secret("tok-123456")
    let capture = CapturingLogSink()
    Log.withScope(sink: capture, revealPrivate: true) {
      Log.auth.info("token \(token) / \(token, privacy: .private) / \(String(describing: token))")
    }
    #expect(capture.messages == ["token <redacted> / <redacted> / <redacted>"])
    #expect("\(token)" == "<redacted>")
    #expect(String(reflecting: token) == "<redacted>")
    var dumped = ""
    dump(token, to: &dumped)
    #expect(!dumped.contains("tok-123456"))
    #expect(token.value == "tok-123456")
  }

  /// A level chosen at run time, with fields: evaluated only when enabled, and their values
  /// masked like the message for any sink (not only the JSON one).
  @Test func fieldsAreLazyAndMaskedForEverySink() throws {
    let secret = "fld-4c1d7e9a02"
    KnownSecrets.register(secret)
    let capture = CapturingLogSink()
    let counter = EvaluationCounter()
    Log.withScope(sink: capture, levels: LogThresholds(global: .info)) {
      let log = Log(category: "payments")
      log.log(.debug, "below", fields: ["n": counter.next()])
      log.log(.warning, "charged \(secret)", fields: ["card": "ref \(secret)", "amount": "12"])
    }
    #expect(counter.count == 0)
    #expect(capture.records.count == 1)
    let record = try #require(capture.records.first)
    #expect(record.level == .warning)
    #expect(record.message == "charged <redacted>")
    #expect(record.fields == ["card": "ref <redacted>", "amount": "12"])
  }

  /// Every level takes fields, lazily: the same record as `log(_:_:fields:)` gives.
  @Test func everyLevelTakesFields() throws {
    let capture = CapturingLogSink()
    let counter = EvaluationCounter()
    Log.withScope(sink: capture, levels: LogThresholds(global: .info)) {
      let log = Log(category: "orders")
      log.trace("t", fields: ["n": counter.next()])
      log.debug("d", fields: ["n": counter.next()])
      log.info("i", fields: ["level": "info"])
      log.notice("n", fields: ["level": "notice"])
      log.warning("w", fields: ["level": "warning"])
      log.error("e", fields: ["level": "error"])
      log.critical("c", fields: ["level": "critical"])
    }
    #expect(counter.count == 0, "below the threshold: never evaluated")
    #expect(
      capture.records.map { $0.fields["level"] } == [
        "info", "notice", "warning", "error", "critical",
      ])
    #expect(capture.records.map(\.level) == [.info, .notice, .warning, .error, .critical])
  }

  @Test func recordsCarrySourceAndCategory() throws {
    let capture = CapturingLogSink()
    Log.withScope(sink: capture) { Log(category: "payments").notice("charged") }
    let record = try #require(capture.records.first)
    #expect(record.category == "payments")
    #expect(record.level == .notice)
    #expect(record.file.hasSuffix("LogTests.swift"))
    #expect(record.line > 0)
  }

  @Test func scopesDoNotLeakBetweenConcurrentTasks() async {
    let first = CapturingLogSink()
    let second = CapturingLogSink()
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        await Log.withScope(sink: first) {
          for index in 0..<50 {
            Log.general.info("first \(index)")
            await Task.yield()
          }
        }
      }
      group.addTask {
        await Log.withScope(sink: second) {
          for index in 0..<50 {
            Log.general.info("second \(index)")
            await Task.yield()
          }
        }
      }
    }
    #expect(first.messages.count == 50 && first.messages.allSatisfy { $0.hasPrefix("first") })
    #expect(second.messages.count == 50 && second.messages.allSatisfy { $0.hasPrefix("second") })
  }

  @Test(arguments: [
    ("trace", LogLevel.trace), ("DEBUG", .debug), ("Warn", .warning), ("critical", .critical),
  ])
  func levelNamesParse(_ name: String, _ level: LogLevel) {
    #expect(LogLevel(name: name) == level)
  }

  @Test func levelsComeFromConfig() throws {
    let config = try Config(
      parsing: "LOG_LEVEL = warning\nLOG_LEVEL_NETWORKING = trace\nLOG_LEVEL_AUTH = error")
    let levels = try LogThresholds(config: config)
    #expect(levels.global == .warning)
    #expect(levels.level(for: "networking") == .trace)
    #expect(levels.level(for: "auth") == .error)
    #expect(levels.level(for: "general") == .warning)
  }

  @Test func unknownLevelInConfigIsAnError() throws {
    let config = try Config(parsing: "A = 1\nLOG_LEVEL_AUTH = loud", name: "l.xcconfig")
    let error = try #require(throws: ConfigError.self) { try LogThresholds(config: config) }
    #expect(error.location == SourceLocation(file: "l.xcconfig", line: 2, column: 1))
    #expect(error.message.contains("LOG_LEVEL_AUTH"))
  }

  @Test func configDiagnosticsAreLoggedAtDebug() throws {
    let config = try Config(parsing: "A = 1\nA = 2", name: "d.xcconfig")
    let capture = CapturingLogSink()
    Log.withScope(sink: capture) { config.logDiagnostics() }
    #expect(capture.records.map(\.level) == [.debug])
    #expect(capture.text.contains("d.xcconfig:1:1") && capture.text.contains("d.xcconfig:2:1"))
  }
}

/// Exercises the global (non-scoped) path: bootstrap, atomic thresholds, setLevels.
/// Uses its own category so concurrent suites are unaffected.
@Suite("Log bootstrap", .serialized)
struct LogBootstrapTests {
  @Test func bootstrapAndSetLevelsDriveTheGlobalPath() throws {
    let category = "bootstrap-\(UUID().uuidString)"
    let logger = Log(category: category)
    let capture = CapturingLogSink()
    let previous = Log.levels
    defer {
      Log.levels = previous
      Log.bootstrap(sink: DiscardingLogSink())
    }

    Log.levels = LogThresholds(global: .critical, categories: [category: .info])
    Log.bootstrap(sink: capture)
    let counter = EvaluationCounter()
    logger.debug("\(counter.next())")
    logger.info("kept")
    #expect(counter.count == 0)

    Log.levels = LogThresholds(global: .critical, categories: [category: .error])
    logger.warning("dropped")
    logger.error("kept too")
    #expect(capture.records(category: category).map(\.message) == ["kept", "kept too"])
  }

  /// The configuration's levels become `Log.levels` (its `LOG_FORMAT` lines are checked in a
  /// process of their own, where standard error can be read: `LogSilenceTests`).
  @Test func bootstrapFromConfigSetsTheLevels() throws {
    let category = "cfg\(UUID().uuidString.filter(\.isLetter))"
    let previous = Log.levels
    defer {
      Log.levels = previous
      Log.bootstrap(sink: DiscardingLogSink())
    }
    let config = try Config(
      parsing: "LOG_LEVEL = critical\nLOG_LEVEL_\(category.uppercased()) = info")
    try Log.bootstrap(config: config, sink: DiscardingLogSink())
    #expect(Log.levels.level(for: category) == .info && Log.levels.global == .critical)
    #expect(Log(category: category).isEnabled(.info) && !Log.general.isEnabled(.error))
  }

  @Test func unknownLogFormatIsAConfigError() throws {
    let config = try Config(parsing: "LOG_FORMAT = xml", name: "f.xcconfig")
    let error = try #require(throws: ConfigError.self) { try Log.bootstrap(config: config) }
    #expect(error.description == "f.xcconfig:1:1: LOG_FORMAT: expected text or json, got 'xml'")
  }
}
