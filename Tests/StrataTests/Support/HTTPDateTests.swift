import Foundation
import StrataTesting
import Testing

@testable import Strata

/// `Expires`, `Date` and `Retry-After` are a server's text: every form RFC 9110 §5.6.7 names is
/// read, and anything else — a hostile header included — is no date, never a trap.
@Suite("HTTP dates")
struct HTTPDateTests {
  /// Sun, 06 Nov 1994 08:49:37 GMT, the RFC's own example.
  let example = Date(timeIntervalSince1970: 784_111_777)
  let now = Date(timeIntervalSince1970: 1_795_900_000)  // late November 2026

  @Test func theThreeFormsNameTheSameInstant() {
    #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == example)
    #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == example)
    #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == example)
    #expect(HTTPDate.parse("  Sun Nov 6 08:49:37 1994 ") == example)
  }

  /// A two-digit year more than 50 years ahead is the century before's.
  @Test func aTwoDigitYearIsPlacedAroundNow() {
    let year = { (text: String) -> Int? in
      HTTPDate.parse("Friday, 01-Jan-\(text) 00:00:00 GMT", now: self.now).map {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        return calendar.component(.year, from: $0)
      }
    }
    #expect(year("26") == 2026)
    #expect(year("76") == 2076)
    #expect(year("77") == 1977)
    #expect(year("99") == 1999)
    #expect(year("7") == nil)
    #expect(year("2026") == nil)
  }

  /// Each of these once reached `DateFormatter`; the first ended the process on Linux
  /// ("Incorrect range CFRange") when it came as an `Expires` or `Retry-After` value.
  @Test(arguments: [
    "Sun\u{05BF}6", "Sun\u{05BF}, 06 Nov 1994 08:49:37 GMT", "Sün, 06 Nov 1994 08:49:37 GMT",
    "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
    "Sun, 06 Nov 1994 8:49:37 GMT",
    "Sun, 06 Nov 99999 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC",
    "Sunday, 06-Nov-1994 08:49:37 GMT",
    "Sun Nov 6 08:49:37", "Sun, 06 Nov 1994 08:49:37 GMT" + String(repeating: " x", count: 40),
    "Sun, 99999999999999999999 Nov 1994 08:49:37 GMT", "", "GMT", "\u{0}",
    "Sunday, 06--Nov-94 08:49:37 GMT", "Sun, 06 Nov 1994 08::49:37 GMT",
  ])
  func anythingElseIsNoDate(_ text: String) {
    #expect(HTTPDate.parse(text, now: now) == nil)
    #expect(RetryPolicy.parseRetryAfter(text, now: now) == nil)
  }

  /// Runs of spaces between the parts are read as one (asctime pads the day with one), up to a
  /// text of 64 bytes; a longer one is no date, whatever it holds.
  @Test(arguments: [(64, true), (65, false)])
  func aDateIsReadUpTo64Bytes(length: Int, read: Bool) {
    let padding = String(repeating: " ", count: length - "Sun, 06 Nov 1994 08:49:37 GMT".count)
    let text = "Sun, 06 Nov 1994" + padding + " 08:49:37 GMT"
    #expect(text.utf8.count == length)
    #expect((HTTPDate.parse(text) == example) == read)
  }

  @Test func aLeapSecondIsTheLastOfItsMinute() {
    #expect(
      HTTPDate.parse("Wed, 31 Dec 2016 23:59:60 GMT") == Date(timeIntervalSince1970: 1_483_228_799))
  }

  /// The same text as a server's headers, through the whole request path: a 503 whose
  /// `Retry-After` is no date is retried on the policy's own delay, and an answer whose `Date`
  /// and `Expires` are none is kept as already expired (RFC 9111 §5.3) — asked again, not served.
  @Test func aHostileDateHeaderIsNoDateOnTheRequestPath() async throws {
    let hostile = "Sun\u{05BF}6"
    let transport = MockTransport { request, index in
      try MockTransport.response(
        request, status: index == 1 ? 503 : 200, body: #"{"id":1}"#,
        headers: [
          "Retry-After": hostile, "Date": hostile, "Expires": hostile,
          "Content-Type": "application/json",
        ])
    }
    var options = NetworkOptions(
      baseURL: URL(string: "https://api.example")!,
      retryPolicy: RetryPolicy(maxRetries: 1, baseDelay: .seconds(3), jitter: .none))
    options.cache = HTTPCache()
    let clock = ManualClock()
    let network = NetworkService(options: options, transport: transport, clock: clock)
    _ = try await network.send(Request<Data>(path: "a"))
    #expect(clock.sleeps == [.seconds(3)])
    let again = try await network.send(Request<Data>(path: "a"))
    #expect(again.source == .network)
    #expect(transport.requests.count == 3)
  }
}
