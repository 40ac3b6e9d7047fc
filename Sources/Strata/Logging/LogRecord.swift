import Foundation

/// One log event, as handed to a ``LogSink``. The message is already rendered: private
/// values are hidden unless revealing was switched on.
public struct LogRecord: Sendable, Equatable {
  /// When the event happened.
  public let timestamp: Date
  public let level: LogLevel
  /// The logger category (`networking`, `auth`, …).
  public let category: String
  public let message: String
  /// The source file (`#fileID`) that logged it.
  public let file: String
  /// The source line that logged it.
  public let line: UInt
  /// Structured data beside the message (a request's method, status, duration…): JSON lines
  /// carry them as a `fields` object. Values are masked like the message.
  public let fields: [String: String]

  /// Creates a record: what a test hands a ``LogSink`` it checks, or a sink that forwards
  /// records it received elsewhere.
  public init(
    timestamp: Date = Date(), level: LogLevel, category: String, message: String,
    file: String = #fileID, line: UInt = #line, fields: [String: String] = [:]
  ) {
    self.timestamp = timestamp
    self.level = level
    self.category = category
    self.message = message
    self.file = file
    self.line = line
    self.fields = fields
  }

  /// The timestamp as ISO-8601 UTC with milliseconds: `2026-11-22T01:30:00.123Z`.
  package var isoTimestamp: String {
    let milliseconds = Int64((timestamp.timeIntervalSince1970 * 1000).rounded(.down))
    let days = milliseconds.floorDiv(86_400_000)
    let dayMillis = milliseconds - days * 86_400_000
    let (year, month, day) = Self.civilDate(daysSinceEpoch: days)
    let hour = dayMillis / 3_600_000
    let minute = dayMillis / 60_000 % 60
    let second = dayMillis / 1000 % 60
    let millis = dayMillis % 1000
    return "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))T"
      + "\(Self.pad(hour, 2)):\(Self.pad(minute, 2)):\(Self.pad(second, 2)).\(Self.pad(millis, 3))Z"
  }

  /// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
  private static func civilDate(daysSinceEpoch: Int64) -> (Int64, Int64, Int64) {
    let z = daysSinceEpoch + 719_468
    let era = z.floorDiv(146_097)
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }
}

extension Int64 {
  fileprivate func floorDiv(_ divisor: Int64) -> Int64 {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}
