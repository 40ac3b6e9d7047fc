import Foundation
import Strata
import StrataConcurrency
import StrataSandbox
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The time to first byte — when an attempt's response head arrived — is what URLSession tells
/// apart from the body: recorded per attempt (``RequestRecord/firstByteMilliseconds``) and in
/// a HAR entry's `wait` (its `receive` the body after it). A transport that answers whole
/// tells nothing, and nothing is invented.
@Suite("Time to first byte")
struct TimeToFirstByteTests {
  private static func recording(
    _ options: inout NetworkOptions
  ) -> (HARRecorder, @Sendable () -> [RequestRecord]) {
    let records = Lock<[RequestRecord]>([])
    let har = HARRecorder()
    options.observer = .all([
      har.observer, CallObserver { record in records.withLock { $0.append(record) } },
    ])
    return (har, { records.withLock { $0 } })
  }

  private static func timings(_ har: HARRecorder) throws -> [(
    time: Double, wait: Double, receive: Double
  )] {
    let root = try JSONSerialization.jsonObject(with: try har.har()) as? [String: Any]
    let entries = (root?["log"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []
    return entries.map { entry in
      let timings = entry["timings"] as? [String: Any]
      return (
        entry["time"] as? Double ?? -1, timings?["wait"] as? Double ?? -1,
        timings?["receive"] as? Double ?? -1
      )
    }
  }

  @Test func urlSessionTellsWhenTheHeadArrivedInTheRecordAndTheHAR() async throws {
    try await withSandbox { server in
      var options = NetworkOptions(
        baseURL: server.baseURL, deadline: .seconds(300), retryPolicy: .none)
      let (har, records) = Self.recording(&options)
      let service = NetworkService(options: options, transport: sharedTransport)
      _ = try await service.send(Request<Data>(path: "users?limit=30"))
      let record = try #require(records().first)
      let firstByte = try #require(record.firstByteMilliseconds, "URLSession tells")
      #expect(firstByte >= 0 && firstByte <= record.durationMilliseconds)
      #expect(record.fields["http.first_byte_ms"] != nil)
      let decoded = try JSONDecoder().decode(
        RequestRecord.self, from: JSONEncoder().encode(record))
      var unexchanged = record
      unexchanged.exchange = nil  // what was exchanged is never written (it is not masked)
      #expect(decoded == unexchanged, "a --http-log line keeps it")
      let entry = try #require(try Self.timings(har).first)
      #expect(entry.wait >= 0 && entry.receive >= 0)
      #expect(abs(entry.wait + entry.receive - entry.time) < 0.001, "wait, then the body")
    }
  }

  /// Every transport returns at its head, so an app's own is timed as URLSession is: the
  /// time to first byte is when its `send` returned, within the attempt.
  @Test func anAppsTransportIsTimedAtItsHeadToo() async throws {
    var options = NetworkOptions(
      baseURL: URL(string: "https://api.example")!, deadline: .seconds(300), retryPolicy: .none)
    let (har, records) = Self.recording(&options)
    let transport = MockTransport { request, _ in
      try MockTransport.response(request, status: 200, body: "{}")
    }
    let service = NetworkService(options: options, transport: transport, clock: ManualClock())
    _ = try await service.send(Request<Data>(path: "users"))
    let record = try #require(records().first)
    let firstByte = try #require(record.firstByteMilliseconds)
    #expect(firstByte >= 0 && firstByte <= record.durationMilliseconds)
    #expect(record.fields["http.first_byte_ms"] != nil)
    let entry = try #require(try Self.timings(har).first)
    #expect(entry.wait >= 0 && entry.receive >= 0)
    #expect(abs(entry.wait + entry.receive - entry.time) < 0.001, "wait, then the body")
  }
}
