import Foundation

/// HTTP dates (RFC 9110 §5.6.7) — `Expires`, `Date`, `Retry-After`. The IMF-fixdate form
/// servers send (`Sun, 06 Nov 1994 08:49:37 GMT`) is parsed by hand, on every cached answer's
/// freshness check; the two obsolete forms a recipient must still accept (RFC 850 and
/// asctime) through a `DateFormatter` made per call (one shared across threads is not safe).
enum HTTPDate {
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  static func parse(_ text: String) -> Date? {
    let text = text.trimmingCharacters(in: .whitespaces)
    if let date = imfFixdate(text) { return date }
    for format in ["EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "GMT")
      formatter.dateFormat = format
      if let date = formatter.date(from: text) { return date }
    }
    return nil
  }

  private static func imfFixdate(_ text: String) -> Date? {
    let parts = text.split(separator: " ")
    guard parts.count == 6, parts[5] == "GMT", let day = parts[1].plainInteger,
      let month = months.firstIndex(of: String(parts[2])), let year = parts[3].plainInteger
    else { return nil }
    let time = parts[4].split(separator: ":")
    guard time.count == 3, let hour = time[0].plainInteger, let minute = time[1].plainInteger,
      let second = time[2].plainInteger, (1...31).contains(day), (1...9999).contains(year),
      hour < 24, minute < 60, second < 61
    else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "GMT") ?? calendar.timeZone
    return calendar.date(
      from: DateComponents(
        year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second))
  }
}
