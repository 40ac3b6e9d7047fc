/// One JSON object per line, for log shippers:
/// `{"timestamp":"…","level":"info","category":"networking","message":"…","file":"…","line":42}`.
public struct JSONLogSink: LogSink {
  private let write: @Sendable (String) -> Void

  /// Creates a JSON-lines sink.
  /// - Parameter write: Receives each line, newline included, and must be thread-safe (a
  ///   file, a test's buffer); nil writes to standard error, one `write(2)` per record so
  ///   records never interleave.
  public init(write: (@Sendable (String) -> Void)? = nil) {
    self.write = write ?? StandardError.write
  }

  /// Encodes and writes one record.
  public func log(_ record: LogRecord) {
    var line = "{\"timestamp\":"
    Self.appendQuoted(record.isoTimestamp, to: &line)
    line += ",\"level\":"
    Self.appendQuoted(record.level.description, to: &line)
    line += ",\"category\":"
    Self.appendQuoted(record.category, to: &line)
    line += ",\"message\":"
    Self.appendQuoted(record.message, to: &line)
    line += ",\"file\":"
    Self.appendQuoted(record.file, to: &line)
    line += ",\"line\":\(record.line)"
    if !record.fields.isEmpty {
      line += ",\"fields\":{"
      for (index, (name, value)) in record.fields.sorted(by: { $0.key < $1.key }).enumerated() {
        if index > 0 { line += "," }
        Self.appendQuoted(name, to: &line)
        line += ":"
        Self.appendQuoted(value, to: &line)
      }
      line += "}"
    }
    line += "}\n"
    write(line)
  }

  /// Appends `text` as a JSON string literal (RFC 8259 escaping).
  static func appendQuoted(_ text: String, to output: inout String) {
    output.unicodeScalars.append("\"")
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    output.unicodeScalars.append("\"")
  }
}
