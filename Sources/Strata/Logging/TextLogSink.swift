/// Human-readable lines: `2026-11-22T01:30:00.123Z info     [networking] GET /users → 200`.
/// Newlines inside a message are escaped so one record is always one line (no log forging).
public struct TextLogSink: LogSink {
  private let write: @Sendable (String) -> Void

  /// Creates a text sink.
  /// - Parameter write: Receives each line, newline included, and must be thread-safe (a
  ///   file, a test's buffer); nil writes to standard error, one `write(2)` per record so
  ///   records never interleave.
  public init(write: (@Sendable (String) -> Void)? = nil) {
    self.write = write ?? StandardError.write
  }

  /// Formats and writes one record.
  public func log(_ record: LogRecord) {
    let level = record.level.description
    let padded = level + String(repeating: " ", count: max(0, 8 - level.count))
    write(
      "\(record.isoTimestamp) \(padded) [\(record.category)] \(Self.oneLine(record.message))\n")
  }

  static func oneLine(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
    return text.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(
      of: "\n", with: "\\n")
  }
}
