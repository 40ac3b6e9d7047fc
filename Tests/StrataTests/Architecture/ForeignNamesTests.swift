import Foundation
import NameStandIns
import Strata
import Testing

// A sink forwarding to swift-log, as an app writes it in its own package (`NameStandIns`
// stands in for swift-log here).

/// Forwards Strata's records to swift-log: `Log.bootstrap(sink: SwiftLogSink())`.
struct SwiftLogSink: LogSink {
  func log(_ record: LogRecord) {
    var logger = Logger(label: "strata.\(record.category)")
    logger.logLevel = .trace  // Strata has already filtered by level
    logger.log(
      level: Self.levels[record.level] ?? .info, "\(record.message)",
      metadata: record.fields.mapValues { .string($0) },
      file: record.file, function: "", line: record.line)
  }

  private static let levels: [LogLevel: Logger.Level] = [
    .trace: .trace, .debug: .debug, .info: .info, .notice: .notice,
    .warning: .warning, .error: .error, .critical: .critical,
  ]
}

@Suite("Next to swift-log, Swinject and os")
struct ForeignNamesTests {
  /// Compiles only if Strata declares none of these names: unqualified, each would be
  /// ambiguous between the two modules.
  @Test func theirNamesNeedNoQualification() {
    let container: Container = Container()
    let handler: (any LogHandler)? = nil
    let system: LoggingSystem.Type = LoggingSystem.self
    let logger: Logger = Logger(label: "app")
    #expect(handler == nil && logger.label == "app")
    _ = (container, system)
  }

  @Test func strataRecordsReachSwiftLogMaskedWithTheirFields() async throws {
    let token = "tok-forwarded-\(UUID().uuidString)"
    KnownSecrets.register([token])
    let category = "forwarding-\(UUID().uuidString.prefix(8))"
    Log.withScope(sink: SwiftLogSink(), levels: .all) {
      Log(category: category).log(
        .notice, "sent Bearer \(token)", fields: ["http.status": "200"])
    }
    let entry = try #require(Logger.entries.first { $0.label == "strata.\(category)" })
    #expect(entry.level == .notice)
    #expect(!entry.message.contains(token) && entry.message.contains("<redacted>"))
    #expect(entry.metadata == ["http.status": .string("200")])
    #expect(entry.file.hasSuffix("ForeignNamesTests.swift") && entry.line > 0)
  }
}
