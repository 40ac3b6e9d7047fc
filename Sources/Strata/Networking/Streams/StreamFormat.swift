import Foundation

/// How a streamed answer is read (``NetworkService/stream(_:as:state:)``), asked for by name,
/// each with the `Accept` it sends when the request names none:
/// ```swift
/// for try await line in network.stream(Request<Data>(path: "logs/tail"), as: .lines) {
///   show(line)
/// }
/// ```
public struct StreamFormat<Element: Sendable>: Sendable {
  /// Sent as `Accept` unless the request has one of its own.
  let accept: String
  /// A reader of one stream's body; `limit` bounds a line or an event, in bytes.
  let parser: @Sendable (_ service: NetworkService, _ limit: Int) -> any StreamParser<Element>
  /// The elements a fake ``Networking`` reads from a JSON array (StrataTesting's script).
  package let fake: @Sendable (Data) throws -> [Element]
}

extension StreamFormat where Element == Data {
  /// The body's pieces as they arrive (`Accept: */*`).
  public static var bytes: Self {
    Self(
      accept: "*/*", parser: { _, _ in ChunkParser() },
      fake: { try JSONDecoder().decode([Data].self, from: $0) })
  }
}

extension StreamFormat where Element == String {
  /// The body's lines (ended by `LF` or `CR LF`) as UTF-8 text, a bad sequence replaced
  /// (`Accept: text/plain, */*;q=0.5`).
  public static var lines: Self {
    Self(
      accept: "text/plain, */*;q=0.5", parser: { LineParser(maxLength: $1) },
      fake: { try JSONDecoder().decode([String].self, from: $0) })
  }
}

extension StreamFormat where Element: Decodable {
  /// One value per line of newline-delimited JSON (`application/x-ndjson`,
  /// `application/jsonl`), decoded with the service's decoder; a blank line is skipped, one
  /// that does not decode ends the stream with an error naming the line.
  public static func jsonLines(_ type: Element.Type = Element.self) -> Self {
    Self(
      accept: "application/x-ndjson, application/jsonl, application/json;q=0.5",
      parser: { service, limit in
        JSONLineParser(maxLength: limit) { line in
          try service.decode(Element.self, line, status: 200, contentType: "application/json")
        }
      },
      fake: { try JSONDecoder().decode([Element].self, from: $0) })
  }
}

extension StreamFormat where Element == ServerSentEvent {
  /// Server-sent events (`text/event-stream`, the WHATWG EventSource model), reconnecting
  /// when the connection drops — after the server's `retry:` (at least 250 ms, at most the
  /// retry policy's `maxDelay`), else the policy's backoff, and at least that backoff after
  /// connections that brought nothing — with `Last-Event-ID`, until the reader stops. A `204`
  /// or another content type ends the stream cleanly.
  /// - Parameter lastEventID: Where a reader that has seen events before resumes: sent as
  ///   `Last-Event-ID` on the first connection (the server replays what followed it); nil
  ///   starts wherever the server starts a new reader.
  public static func events(lastEventID: String? = nil) -> Self {
    Self(
      accept: "text/event-stream",
      parser: { _, limit in
        var parser = EventParser(maxLength: limit)
        if let lastEventID, !lastEventID.isEmpty { parser.resume(from: lastEventID) }
        return parser
      },
      fake: { try JSONDecoder().decode([ScriptedEvent].self, from: $0).map(\.event) })
  }
}

/// Where a stream is (``NetworkService/stream(_:as:state:)``'s `state`): told at each change.
public enum StreamState: Sendable, Equatable {
  /// Sending the request, or — an event stream — waiting to connect again.
  case connecting
  /// An answer to read has arrived; its elements are being handed over.
  case open
  /// The stream has ended (its reader sees how); nothing follows.
  case closed
}

/// An event as a test's script writes it: `{"type": "message", "data": "hi", "id": "1"}`,
/// `type` and `id` optional.
private struct ScriptedEvent: Decodable {
  var type: String?
  var data: String
  var id: String?

  var event: ServerSentEvent { ServerSentEvent(type: type ?? "message", data: data, id: id) }
}
