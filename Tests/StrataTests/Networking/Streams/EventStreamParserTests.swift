import Foundation
import Testing

@testable import Strata

/// The WHATWG EventSource processing model, piece by piece: every way a server may frame
/// events, and every place a piece may break.
struct EventStreamParserTests {
  /// Events from `pieces`, fed in order.
  private func events(_ pieces: [String], maxLength: Int = 1 << 20) -> [ServerSentEvent] {
    var parser = EventStreamParser(maxLength: maxLength)
    var events: [ServerSentEvent] = []
    for piece in pieces { parser.feed(Data(piece.utf8), into: &events) }
    return events
  }

  /// `text` fed in pieces of every size from 1 byte up: the same events whatever the breaks.
  private func everySplit(_ text: String) -> [[ServerSentEvent]] {
    let bytes = Array(text.utf8)
    return (1...max(1, bytes.count)).map { size in
      var parser = EventStreamParser(maxLength: 1 << 20)
      var events: [ServerSentEvent] = []
      for start in stride(from: 0, to: bytes.count, by: size) {
        parser.feed(Data(bytes[start..<min(start + size, bytes.count)]), into: &events)
      }
      return events
    }
  }

  @Test func dataLinesJoinAndTheTypeDefaultsToMessage() {
    #expect(
      events(["data: one\ndata: two\n\nevent: add\ndata: x\n\n"]) == [
        ServerSentEvent(data: "one\ntwo"), ServerSentEvent(type: "add", data: "x"),
      ])
  }

  @Test func everyLineEndAndEveryBreakGiveTheSameEvents() {
    let text = "\u{FEFF}: hello\r\nid: 7\rdata:a\r\ndata: b\n\r\nevent: e\ndata\n\n"
    let expected = [
      ServerSentEvent(data: "a\nb", id: "7"), ServerSentEvent(type: "e", data: "", id: "7"),
    ]
    for (size, got) in everySplit(text).enumerated() {
      #expect(got == expected, "pieces of \(size + 1) bytes")
    }
  }

  @Test func aByteOrderMarkIsDroppedOnlyAtTheStart() {
    #expect(events(["\u{FEFF}data: x\n\n"]) == [ServerSentEvent(data: "x")])
    // Only one: a second is part of the first line's name, which is then no field.
    #expect(events(["\u{FEFF}\u{FEFF}data: x\n\ndata: y\n\n"]) == [ServerSentEvent(data: "y")])
    // A mark split over three pieces is still one.
    var parser = EventStreamParser(maxLength: 100)
    var events: [ServerSentEvent] = []
    for byte: UInt8 in [0xEF, 0xBB, 0xBF] { parser.feed(Data([byte]), into: &events) }
    parser.feed(Data("data: x\n\n".utf8), into: &events)
    #expect(events == [ServerSentEvent(data: "x")])
  }

  @Test func commentsAndUnknownFieldsAndEmptyEventsDispatchNothing() {
    #expect(events([": heartbeat\n\n", "foo: bar\n\n", "event: x\n\n", "\n\n"]).isEmpty)
  }

  @Test func anIDWithANulIsIgnoredAndAnEmptyOneClears() {
    var parser = EventStreamParser(maxLength: 100)
    var events: [ServerSentEvent] = []
    parser.feed(
      Data("id: 1\ndata: a\n\nid: 2\u{0}\ndata: b\n\nid\ndata: c\n\n".utf8), into: &events)
    #expect(events.map(\.id) == ["1", "1", ""])
    #expect(parser.lastEventID == "")
  }

  @Test func retryTakesOnlyDigitsAndCapsWhatOverflows() {
    var parser = EventStreamParser(maxLength: 100)
    var events: [ServerSentEvent] = []
    parser.feed(Data("retry: 2500\n\nretry: 1.5\n\nretry: -3\n\n".utf8), into: &events)
    #expect(parser.retry == 2500)
    parser.feed(Data("retry: 99999999999999999999999999\n".utf8), into: &events)
    #expect(parser.retry == .max)
    parser.feed(Data("retry: 0\n".utf8), into: &events)
    #expect(parser.retry == 0)
  }

  @Test func anEventOverTheLimitIsSkippedAndTheStreamGoesOn() {
    var parser = EventStreamParser(maxLength: 16)
    var events: [ServerSentEvent] = []
    let long = String(repeating: "x", count: 40)
    parser.feed(Data("data: \(long)\n\ndata: 0123456789\ndata: 0123456789\n\n".utf8), into: &events)
    parser.feed(Data("data: fine\n\n".utf8), into: &events)
    #expect(events == [ServerSentEvent(data: "fine")])
    #expect(parser.skipped == 2)
  }

  @Test func anEndlessLineIsNeverHeldWhole() {
    var parser = EventStreamParser(maxLength: 1024)
    var events: [ServerSentEvent] = []
    let piece = Data(repeating: UInt8(ascii: "a"), count: 64 * 1024)
    parser.feed(Data("data: ".utf8), into: &events)
    for _ in 0..<100 { parser.feed(piece, into: &events) }
    parser.feed(Data("\n\ndata: after\n\n".utf8), into: &events)
    #expect(events == [ServerSentEvent(data: "after")])
  }

  @Test func aConnectionThatEndsMidEventDropsItButKeepsTheID() {
    var parser = EventStreamParser(maxLength: 100)
    var events: [ServerSentEvent] = []
    parser.feed(Data("id: 4\ndata: whole\n\ndata: half".utf8), into: &events)
    parser.reset()
    parser.feed(Data("\u{FEFF}data: next\n\n".utf8), into: &events)
    #expect(
      events == [ServerSentEvent(data: "whole", id: "4"), ServerSentEvent(data: "next", id: "4")])
  }
}

/// Lines and JSON lines, wherever the pieces break.
struct LineSplitterTests {
  private func lines(_ pieces: [String], maxLength: Int = 100) throws -> [String] {
    var parser = LineParser(maxLength: maxLength)
    var lines: [String] = []
    for piece in pieces { try parser.feed(Data(piece.utf8), into: &lines) }
    parser.finish(into: &lines)
    return lines
  }

  @Test func lfAndCRLFEndLinesAcrossBreaks() throws {
    #expect(try lines(["a\r", "\nb\n", "c\r\n\r\nd"]) == ["a", "b", "c", "", "d"])
    #expect(try lines(["one line"]) == ["one line"])
    // A lone CR is part of a line (only an event stream ends lines on it).
    #expect(try lines(["a\rb\n"]) == ["a\rb"])
  }

  @Test func aLineOverTheLimitIsAClearError() {
    #expect {
      _ = try lines([String(repeating: "x", count: 60), String(repeating: "y", count: 60), "\n"])
    } throws: { error in
      "\(error)".contains("a line of the stream was longer than the 100-byte limit")
    }
  }

  @Test func jsonLinesNameTheLineThatDoesNotDecode() throws {
    struct Item: Decodable, Sendable, Equatable { let id: Int }
    var parser = JSONLineParser<Item>(maxLength: 100) {
      try JSONDecoder().decode(Item.self, from: $0)
    }
    var items: [Item] = []
    try parser.feed(Data("{\"id\":1}\n\n{\"id\"".utf8), into: &items)
    try parser.feed(Data(":2}\r\n{\"id\":3}".utf8), into: &items)
    try parser.finish(into: &items)
    #expect(items == [Item(id: 1), Item(id: 2), Item(id: 3)])
  }

  /// An event's type is its own: the next event without `event:` is a `message` again.
  @Test func anEventsTypeIsNotCarriedToTheNext() {
    var parser = EventStreamParser(maxLength: 1024)
    var events: [ServerSentEvent] = []
    parser.feed(Data("event: add\ndata: x\n\ndata: y\n\n".utf8), into: &events)
    #expect(events.map(\.type) == ["add", "message"])
  }

  /// The limit is exact: a line of `maxLength` bytes is read, one byte more is refused.
  @Test func theLineLimitIsExact() throws {
    var parser = LineParser(maxLength: 5)
    var lines: [String] = []
    try parser.feed(Data("12345\n".utf8), into: &lines)
    #expect(lines == ["12345"])
    #expect(throws: NetworkError.self) { try parser.feed(Data("123456\n".utf8), into: &lines) }
    var split = LineParser(maxLength: 5)
    try split.feed(Data("123".utf8), into: &lines)
    try split.feed(Data("45\n".utf8), into: &lines)
    #expect(lines == ["12345", "12345"], "the limit counts across pieces")
    #expect(throws: NetworkError.self) {
      try split.feed(Data("123456".utf8), into: &lines)
    }
  }
}
