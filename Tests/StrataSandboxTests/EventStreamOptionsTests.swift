import Foundation
import Testing

@testable import StrataSandbox

/// The event feed's query options and `Last-Event-ID`: digits only, 18 at most (no sign, no
/// overflow), each option within its range.
struct EventStreamOptionsTests {
  private func request(_ query: [(String, String)], lastEventID: String? = nil) -> SandboxRequest {
    SandboxRequest(
      method: "GET", path: "/events", query: query.map { (name: $0.0, value: $0.1) },
      headers: lastEventID.map { [(name: "Last-Event-ID", value: $0)] } ?? [], body: Data(),
      receivedAt: Date())
  }

  @Test func anIDOfEighteenDigitsIsReadAndALongerOneReplaysEverything() throws {
    let eighteen = String(repeating: "9", count: 18)
    #expect(EventStreamOptions.digits(eighteen) == 999_999_999_999_999_999)
    #expect(EventStreamOptions.digits(eighteen + "9") == nil)
    #expect(EventStreamOptions.digits("-1") == nil && EventStreamOptions.digits("") == nil)
    #expect(
      try EventStreamOptions(request([], lastEventID: eighteen)).after == 999_999_999_999_999_999)
    #expect(try EventStreamOptions(request([], lastEventID: "x7"), now: 12).after == 0)
  }

  /// A reader without `Last-Event-ID` starts with what happens next; `0` replays everything.
  @Test func aNewReaderStartsAtTheFeedsLatestEvent() throws {
    #expect(try EventStreamOptions(request([]), now: 12).after == 12)
    #expect(try EventStreamOptions(request([], lastEventID: "0"), now: 12).after == 0)
    #expect(try EventStreamOptions(request([("lastEventId", "3")]), now: 12).after == 3)
  }

  @Test func optionsOutOfRangeAreRefused() throws {
    #expect(throws: Rejection.self) { try EventStreamOptions(request([("heartbeat", "5")])) }
    #expect(throws: Rejection.self) { try EventStreamOptions(request([("big", "99999999")])) }
    #expect(throws: Rejection.self) { try EventStreamOptions(request([("contentType", "")])) }
    let options = try EventStreamOptions(
      request([("heartbeat", "10"), ("dropAfter", "2"), ("split", "1"), ("retry", "0")]))
    #expect(
      options.heartbeat == 10 && options.dropAfter == 2 && options.split && options.retry == 0)
  }
}
