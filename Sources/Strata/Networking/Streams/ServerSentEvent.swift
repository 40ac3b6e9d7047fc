import Foundation

/// One event of a `text/event-stream` answer, as the WHATWG EventSource model dispatches it:
/// read with ``NetworkService/stream(_:as:state:)`` as ``StreamFormat/events(lastEventID:)``.
public struct ServerSentEvent: Sendable, Equatable {
  /// The `event:` field, or `message` when the event names none.
  public var type: String
  /// The `data:` lines, joined with a line feed.
  public var data: String
  /// The last `id:` the stream gave, at or before this event (sent back as `Last-Event-ID`
  /// when the stream reconnects); nil when it gave none.
  public var id: String?

  /// An event as a fake ``Networking`` of an app's test hands it out.
  public init(type: String = "message", data: String, id: String? = nil) {
    (self.type, self.data, self.id) = (type, data, id)
  }
}
