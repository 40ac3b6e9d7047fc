import Foundation

/// HTTP dates (RFC 9110 §5.6.7) — `Expires`, `Date`, `Retry-After` — in the three forms a
/// recipient must accept: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850
/// form (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`). All three
/// are read by hand: a header is a server's text, and `DateFormatter` on Linux traps on some
/// of it (a combining mark after the day name ends the process), besides costing a formatter
/// per call. Anything but printable ASCII is not a date.
enum HTTPDate {
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// HTTP dates are GMT: one calendar for every parse (a cached answer's freshness check
  /// reads one), not one made per call.
  private static let gmt: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "GMT") ?? calendar.timeZone
    return calendar
  }()

  /// The date `text` names, nil when it is none of the three forms or not a real time. `now`
  /// places an RFC 850 two-digit year: more than 50 years ahead of it means the century before.
  static func parse(_ text: String, now: Date = Date()) -> Date? {
    let text = text.trimmingCharacters(in: .whitespaces)
    guard text.utf8.count <= 64, text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) else {
      return nil
    }
    let parts = text.split(separator: " ")
    switch parts.count {
    case 6 where parts[5] == "GMT":  // Sun, 06 Nov 1994 08:49:37 GMT
      return date(day: parts[1], month: parts[2], year: parts[3].plainInteger, time: parts[4])
    case 4 where parts[3] == "GMT":  // Sunday, 06-Nov-94 08:49:37 GMT
      let day = parts[1].split(separator: "-", omittingEmptySubsequences: false)
      guard day.count == 3, day[2].utf8.count == 2, let short = day[2].plainInteger else {
        return nil
      }
      return date(day: day[0], month: day[1], year: fullYear(short, now: now), time: parts[2])
    case 5:  // Sun Nov  6 08:49:37 1994 (the day padded with a space: split drops it)
      return date(day: parts[2], month: parts[1], year: parts[4].plainInteger, time: parts[3])
    default:
      return nil
    }
  }

  /// The year of a two-digit one (RFC 9110 §5.6.7): this century's, unless that is more than
  /// 50 years after `now`.
  private static func fullYear(_ short: Int, now: Date) -> Int? {
    let current = gmt.component(.year, from: now)
    let year = current - current % 100 + short
    return year > current + 50 ? year - 100 : year
  }

  private static func date(
    day: Substring, month: Substring, year: Int?, time: Substring
  ) -> Date? {
    let clock = time.split(separator: ":", omittingEmptySubsequences: false)
    guard let day = day.plainInteger, let month = months.firstIndex(of: String(month)),
      let year, clock.count == 3, clock.allSatisfy({ $0.utf8.count == 2 }),
      let hour = clock[0].plainInteger, let minute = clock[1].plainInteger,
      let leap = clock[2].plainInteger, (1...31).contains(day), (1...9999).contains(year),
      hour < 24, minute < 60, leap < 61
    else { return nil }
    let second = min(leap, 59)  // a leap second is the last of its minute, not the next's
    let components = DateComponents(
      year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second)
    // 31 Feb is no date: the calendar would roll it into March.
    guard let date = gmt.date(from: components), gmt.component(.day, from: date) == day
    else { return nil }
    return date
  }
}
