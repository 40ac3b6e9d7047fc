import Foundation

/// The WHATWG EventSource processing model (HTML § 9.2.6) over a body's pieces: one leading
/// byte-order mark dropped, lines ended by `CR`, `LF` or `CR LF`, comments (`:`) ignored,
/// `data` lines joined, `event`, `id` (one with a NUL ignored) and `retry` (digits only)
/// fields, and an event dispatched at each blank line — none when it has no data.
/// An event whose data passes `maxLength` bytes, or a line that does, is skipped whole.
struct EventStreamParser {
  private var lines: LineSplitter
  private let maxLength: Int
  /// How many bytes of a possible byte-order mark have been seen at the stream's start; 3:
  /// past the start.
  private var markSeen = 0
  private var data: [UInt8] = []
  private var hasData = false
  private var type: String?
  /// The event under way is over the limit: dropped at its blank line.
  private var oversize = false
  /// How many events were skipped for their size.
  private(set) var skipped = 0
  /// The last `id` the stream set (kept across reconnections, sent as `Last-Event-ID`).
  private(set) var lastEventID: String?
  /// The last valid `retry`, in milliseconds (the reconnection time).
  private(set) var retry: Int?

  init(maxLength: Int) {
    self.maxLength = max(1, maxLength)
    lines = LineSplitter(endsOnCR: true, maxLength: self.maxLength)
  }

  /// The events `piece` completes, in order.
  mutating func feed(_ piece: Data, into events: inout [ServerSentEvent]) {
    var piece = piece
    if markSeen < 3 {
      piece = dropMark(piece)
      if piece.isEmpty { return }
    }
    // Taken out while it calls back into this parser (one owner of its buffer, no copy).
    var splitter = LineSplitter.placeholder
    swap(&splitter, &lines)
    defer { swap(&splitter, &lines) }
    splitter.feed(piece) { line in
      switch line {
      case .overlong: oversize = true
      case .text(let bytes): take(bytes, into: &events)
      }
    }
  }

  /// The reader has the events up to the one with `id` only (the rest were not handed over):
  /// a reconnection asks for what follows it.
  mutating func resume(from id: String) { lastEventID = id }

  /// The connection ended: an event without its blank line is not dispatched, and the next
  /// connection starts a new stream (its own byte-order mark).
  mutating func reset() {
    lines.reset()
    data.removeAll(keepingCapacity: data.count <= 64 * 1024)
    (hasData, type, oversize, markSeen) = (false, nil, false, 0)
  }

  /// `piece` without the part of `EF BB BF` that starts the stream. A start that turns out
  /// not to be one is given back.
  private mutating func dropMark(_ piece: Data) -> Data {
    let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
    var index = piece.startIndex
    while markSeen < 3, index < piece.endIndex, piece[index] == mark[markSeen] {
      markSeen += 1
      index += 1
    }
    if markSeen == 3 { return piece[index...] }
    if index == piece.endIndex { return Data() }  // all of it may be the mark: wait
    // Not a mark: the bytes taken for one are the stream's own.
    let taken = markSeen
    markSeen = 3
    return Data(mark[..<taken]) + piece[index...]
  }

  private mutating func take(_ line: UnsafeRawBufferPointer, into events: inout [ServerSentEvent]) {
    guard let first = line.first else { return dispatch(into: &events) }
    if first == UInt8(ascii: ":") { return }  // a comment: a heartbeat, say
    var colon = line.count
    if let start = line.baseAddress, let found = memchr(start, Int32(UInt8(ascii: ":")), colon) {
      colon = UnsafeRawPointer(found) - start
    }
    let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
    var valueStart = min(colon + 1, line.count)
    if valueStart < line.count, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
    let value = UnsafeRawBufferPointer(rebasing: line[valueStart...])
    // Field names compared as bytes: a String per line costs a third of the parse.
    switch Field(name) {
    case .data:
      if data.count + value.count + 1 > maxLength { oversize = true }
      guard !oversize else { return }
      data.append(contentsOf: value)
      data.append(0x0A)
      hasData = true
    case .event: type = String(decoding: value, as: UTF8.self)
    case .id where !value.contains(0): lastEventID = String(decoding: value, as: UTF8.self)
    case .retry:
      guard !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }) else { return }
      var milliseconds = 0
      for digit in value {
        let (tens, over) = milliseconds.multipliedReportingOverflow(by: 10)
        let (sum, past) = tens.addingReportingOverflow(Int(digit - 0x30))
        guard !over, !past else {
          milliseconds = .max  // capped by the reader
          break
        }
        milliseconds = sum
      }
      retry = milliseconds
    default: break  // an unknown field is ignored
    }
  }

  private enum Field {
    case data, event, id, retry, other

    init(_ name: UnsafeRawBufferPointer) {
      // The name's bytes as one little-endian number: a compare per line, not a loop.
      var word: UInt64 = 0
      if name.count <= 5 {
        for (shift, byte) in name.enumerated() { word |= UInt64(byte) << (8 * UInt64(shift)) }
      }
      switch (name.count, word) {
      case (4, Self.dataWord): self = .data
      case (5, Self.eventWord): self = .event
      case (2, Self.idWord): self = .id
      case (5, Self.retryWord): self = .retry
      default: self = .other
      }
    }

    // Made once: a switch does not fold a call into a constant, and one per line cost more
    // than the compare.
    private static let dataWord = word("data")
    private static let eventWord = word("event")
    private static let idWord = word("id")
    private static let retryWord = word("retry")

    private static func word(_ name: StaticString) -> UInt64 {
      var word: UInt64 = 0
      for (shift, byte) in UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        .enumerated()
      {
        word |= UInt64(byte) << (8 * UInt64(shift))
      }
      return word
    }
  }

  private mutating func dispatch(into events: inout [ServerSentEvent]) {
    defer {
      data.removeAll(keepingCapacity: data.count <= 64 * 1024)
      (hasData, type, oversize) = (false, nil, false)
    }
    if oversize {
      skipped += 1
      return
    }
    guard hasData else { return }
    let text = data.withUnsafeBufferPointer {
      String(decoding: UnsafeBufferPointer(rebasing: $0.dropLast()), as: UTF8.self)
    }
    events.append(
      ServerSentEvent(
        type: type.flatMap { $0.isEmpty ? nil : $0 } ?? "message", data: text,
        id: lastEventID))
  }
}
