import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a streamed answer's pieces become, one reader per ``StreamFormat``: the pieces as
/// they came, lines, the values of JSON lines, or server-sent events.
protocol StreamParser<Element>: Sendable {
  associatedtype Element: Sendable
  /// Whether the stream reconnects when its connection ends (event streams do).
  static var reconnects: Bool { get }
  /// Whether an answer is read at all (an event stream's must be `text/event-stream`):
  /// false ends the stream cleanly.
  func accepts(_ response: HTTPURLResponse) -> Bool
  /// The elements `piece` completes.
  /// - Throws: ``NetworkError`` for what ends the stream (a line over the limit, a JSON line
  ///   that does not decode).
  mutating func feed(_ piece: Data, into elements: inout [Element]) throws
  /// The body ended: what its last bytes, without a line end, complete.
  mutating func finish(into elements: inout [Element]) throws
  /// The connection ended: forget what is half read.
  mutating func reset()
  /// What to send as `Last-Event-ID` when reconnecting.
  var resumeID: String? { get }
  /// The server's reconnection time (`retry:`), in milliseconds.
  var reconnectionTime: Int? { get }
  /// Where a reconnection resumes once the reader has `element` and nothing after it (an
  /// event's id); nil when the stream cannot resume there.
  static func resumePoint(after element: Element) -> String?
  /// The reader has what came up to `id` only: a reconnection asks for what follows it.
  mutating func resume(from id: String)
}

extension StreamParser {
  static var reconnects: Bool { false }
  func accepts(_ response: HTTPURLResponse) -> Bool { true }
  mutating func finish(into elements: inout [Element]) throws {}
  mutating func reset() {}
  var resumeID: String? { nil }
  var reconnectionTime: Int? { nil }
  static func resumePoint(after element: Element) -> String? { nil }
  mutating func resume(from id: String) {}
}

/// The pieces as they arrive.
struct ChunkParser: StreamParser {
  mutating func feed(_ piece: Data, into elements: inout [Data]) { elements.append(piece) }
}

/// Lines ended by `LF` or `CR LF`, as text (UTF-8, a bad sequence replaced).
struct LineParser: StreamParser {
  var lines: LineSplitter

  init(maxLength: Int) { lines = LineSplitter(endsOnCR: false, maxLength: maxLength) }

  mutating func feed(_ piece: Data, into elements: inout [String]) throws {
    let limit = lines.maxLength
    try lines.feed(piece) { line in
      guard case .text(let bytes) = line else { throw Self.overlong(limit) }
      elements.append(String(decoding: bytes, as: UTF8.self))
    }
  }

  mutating func finish(into elements: inout [String]) {
    if let last = lines.remainder() { elements.append(String(decoding: last, as: UTF8.self)) }
  }

  mutating func reset() { lines.reset() }

  static func overlong(_ limit: Int) -> NetworkError {
    StreamLimitExceeded.error(
      limit, "a line of the stream was longer than the \(limit)-byte limit; the stream was stopped")
  }
}

/// Newline-delimited JSON (`application/x-ndjson`, `application/jsonl`): each line that is not
/// blank decoded as one value.
struct JSONLineParser<Value: Decodable & Sendable>: StreamParser {
  var lines: LineSplitter
  /// The service's decoding of one answer (its error names status, path and an excerpt).
  let decode: @Sendable (Data) throws -> Value
  /// Lines read so far, for the error that names one.
  private var number = 0

  init(maxLength: Int, decode: @escaping @Sendable (Data) throws -> Value) {
    lines = LineSplitter(endsOnCR: false, maxLength: maxLength)
    self.decode = decode
  }

  mutating func feed(_ piece: Data, into elements: inout [Value]) throws {
    let limit = lines.maxLength
    var splitter = LineSplitter.placeholder
    swap(&splitter, &lines)
    defer { swap(&splitter, &lines) }
    try splitter.feed(piece) { line in
      guard case .text(let bytes) = line else { throw LineParser.overlong(limit) }
      try decode(bytes, into: &elements)
    }
  }

  mutating func finish(into elements: inout [Value]) throws {
    guard let last = lines.remainder() else { return }
    try last.withUnsafeBytes { try decode($0, into: &elements) }
  }

  mutating func reset() { lines.reset() }

  private mutating func decode(_ bytes: UnsafeRawBufferPointer, into elements: inout [Value])
    throws
  {
    number += 1
    guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
    do {
      elements.append(try decode(Data(bytes)))
    } catch let error as NetworkError {
      // Which line, in front of the path within it.
      guard case .decoding(var failure) = error.kind else { throw error }
      failure.codingPath =
        "line \(number)" + (failure.codingPath.isEmpty ? "" : ".")
        + failure.codingPath
      throw NetworkError(.decoding(failure), underlying: error.underlying)
    }
  }
}

/// Server-sent events (``EventStreamParser``); reconnects, and reads only
/// `text/event-stream`.
struct EventParser: StreamParser {
  var events: EventStreamParser

  init(maxLength: Int) { events = EventStreamParser(maxLength: maxLength) }

  static var reconnects: Bool { true }

  func accepts(_ response: HTTPURLResponse) -> Bool {
    let type = response.value(forHTTPHeaderField: "Content-Type") ?? ""
    return type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
      == "text/event-stream"
  }

  mutating func feed(_ piece: Data, into elements: inout [ServerSentEvent]) {
    events.feed(piece, into: &elements)
  }

  mutating func reset() { events.reset() }
  var resumeID: String? { events.lastEventID }
  var reconnectionTime: Int? { events.retry }
  static func resumePoint(after event: ServerSentEvent) -> String? { event.id }
  mutating func resume(from id: String) { events.resume(from: id) }
}
