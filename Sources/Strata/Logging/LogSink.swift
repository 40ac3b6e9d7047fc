/// Where log records go. Implementations must be thread-safe: records arrive from any task.
public protocol LogSink: Sendable {
  /// - Parameter record: The record, message already rendered and redacted.
  func log(_ record: LogRecord)
}
