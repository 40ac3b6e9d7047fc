import Strata
import StrataConcurrency

/// A ``LogSink`` that keeps every record in memory, for assertions in tests.
/// ```swift
/// let capture = CapturingLogSink()
/// _ = try await Log.withScope(sink: capture) { try await service.send(endpoint) }
/// #expect(!capture.text.contains(token))
/// ```
public final class CapturingLogSink: LogSink {
  private let storage = Lock<[LogRecord]>([])

  /// Creates an empty capture.
  public init() {}

  public func log(_ record: LogRecord) { storage.withLock { $0.append(record) } }

  /// Every record so far, in order.
  public var records: [LogRecord] { storage.withLock { $0 } }

  /// Every message so far, in order.
  public var messages: [String] { records.map(\.message) }

  /// All messages joined by newlines: convenient for "never contains" assertions.
  public var text: String { messages.joined(separator: "\n") }

  /// Records of one category and/or at one level.
  /// - Parameter category: Keep only this category (nil: any).
  /// - Parameter level: Keep only this level (nil: any).
  public func records(category: String? = nil, level: LogLevel? = nil) -> [LogRecord] {
    records.filter {
      (category == nil || $0.category == category) && (level == nil || $0.level == level)
    }
  }

  public func reset() { storage.withLock { $0.removeAll() } }
}
