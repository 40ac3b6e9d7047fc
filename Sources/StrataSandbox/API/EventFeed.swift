import Foundation

/// Strata's addition to the sandbox, not DummyJSON's (which has no event stream): a feed of
/// the writes a sandbox keeps (`--keep-writes`), served as server-sent events at
/// `GET /events`. Each kept write is one event with an id in order; the last 1,000 are kept
/// so a client that reconnects with `Last-Event-ID` gets what it missed.
final class EventFeed: @unchecked Sendable {
  struct Event: Sendable {
    let id: Int
    let type: String
    /// JSON: `{"resource":"posts","id":252,"record":{…}}` (no `record` for a deletion).
    let data: String

    /// The event as a `text/event-stream` record.
    var text: String { "id: \(id)\nevent: \(type)\ndata: \(data)\n\n" }
  }

  static let kept = 1000
  // Every stored property is read and written only while holding `condition`.
  private let condition = NSCondition()
  private var events: [Event] = []
  private var lastID = 0

  /// Adds an event and wakes every stream waiting for one.
  func publish(_ type: String, resource: String, id: Int, record: Data?) {
    var object = #"{"id":\#(id),"resource":"\#(resource)""#
    if let record { object += #","record":"# + String(decoding: record, as: UTF8.self) }
    object += "}"
    condition.lock()
    lastID += 1
    events.append(Event(id: lastID, type: type, data: object))
    if events.count > Self.kept { events.removeFirst(events.count - Self.kept) }
    condition.broadcast()
    condition.unlock()
  }

  /// The events after `id`, waiting until `deadline` for one when there are none yet, while
  /// `running` holds (checked at every wake-up).
  func events(after id: Int, waitingUntil deadline: Date, while running: () -> Bool) -> [Event] {
    condition.lock()
    defer { condition.unlock() }
    while events.last.map({ $0.id <= id }) ?? true {
      guard running(), condition.wait(until: deadline) else { return [] }
    }
    return events.filter { $0.id > id }
  }

  /// The id of the latest event published (0 before the first).
  var latest: Int {
    condition.lock()
    defer { condition.unlock() }
    return lastID
  }

  /// Wakes every waiting stream (the server is stopping).
  func wakeAll() {
    condition.lock()
    condition.broadcast()
    condition.unlock()
  }
}
