/// Human-readable lines: `2026-11-22T01:30:00.123Z info     [networking] GET /users → 200`.
/// Newlines inside a message are escaped so one record is always one line (no log forging).
public struct TextLogSink: LogSink {
  private let output: LogOutput

  /// Creates a text sink.
  /// - Parameter output: Where lines go (standard error by default).
  public init(output: LogOutput = .standardError) { self.output = output }

  /// Formats and writes one record.
  public func log(_ record: LogRecord) {
    let level = record.level.description
    let padded = level + String(repeating: " ", count: max(0, 8 - level.count))
    output.write(
      "\(record.isoTimestamp) \(padded) [\(record.category)] \(Self.oneLine(record.message))\n")
  }

  static func oneLine(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
    return text.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(
      of: "\n", with: "\\n")
  }
}
