import Foundation

/// `GET /events`: the sandbox's feed of kept writes (``EventFeed``) as a `text/event-stream`
/// that stays open — heartbeat comments while nothing happens, what a client missed replayed
/// from its `Last-Event-ID` (`0`: everything kept), a new reader without one starting with
/// what happens next, as an EventSource expects — until the client leaves or the server
/// stops. Its query options
/// are faults for testing a client:
/// - `heartbeat=MS`: a comment every MS milliseconds with nothing to send (default 15000;
///   10–60000);
/// - `retry=MS`: sends `retry: MS` first;
/// - `dropAfter=N`: closes the connection after N events;
/// - `drip=MS`: writes every event a byte at a time, MS milliseconds apart (1–1000);
/// - `big=BYTES`: starts with one event whose data is BYTES long (at most 16 MiB);
/// - `split=1`: writes every field in two pieces, the break inside the field name;
/// - `contentType=TYPE`: answers with another content type (a client must not read it as
///   events).
struct EventStreamOptions {
  var heartbeat = 15_000
  var retry: Int?
  var dropAfter: Int?
  var drip: Int?
  var big: Int?
  var split = false
  var contentType = "text/event-stream"
  /// The last event the client has, from `Last-Event-ID` (or `?lastEventId=`); without one,
  /// the feed's latest when the request arrived.
  var after = 0

  init(_ request: SandboxRequest, now: Int = 0) throws(Rejection) {
    func number(_ name: String, _ range: ClosedRange<Int>) throws(Rejection) -> Int? {
      guard let text = request.queryValue(name) else { return nil }
      guard let value = Self.digits(text), range.contains(value) else {
        throw Rejection(
          400, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return value
    }
    heartbeat = try number("heartbeat", 10...60_000) ?? heartbeat
    retry = try number("retry", 0...Int(Int32.max))
    dropAfter = try number("dropAfter", 0...1_000_000)
    drip = try number("drip", 1...1000)
    big = try number("big", 1...(16 << 20))
    split = try number("split", 0...1) == 1
    if let type = request.queryValue("contentType") {
      guard !type.isEmpty, type.utf8.count <= 100, type.allSatisfy({ $0.isASCII && !$0.isNewline })
      else { throw Rejection(400, "contentType must be a media type") }
      contentType = type
    }
    // An id the feed never gave (not a number, say) replays everything it keeps.
    let last = request.header("Last-Event-ID") ?? request.queryValue("lastEventId")
    after = last.map { Self.digits($0) ?? 0 } ?? now
  }
}

extension EventStreamOptions {
  /// ASCII digits only, at most 18 of them (no sign, no overflow); nil for anything else.
  static func digits(_ text: String) -> Int? {
    guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (48...57).contains($0) })
    else { return nil }
    return Int(text)
  }
}

extension Connection {
  /// Serves the feed until the client leaves or the server stops.
  func streamEvents(_ request: SandboxRequest, feed: EventFeed, now: Int) {
    let options: EventStreamOptions
    do {
      options = try EventStreamOptions(request, now: now)
    } catch {
      Socket.send(fd, error.response.serialized(keepAlive: false, includeBody: true))
      return
    }
    let head =
      "HTTP/1.1 200 OK\r\nContent-Type: \(options.contentType)\r\nCache-Control: no-cache\r\n"
      + "X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n"
    var opening = ": Strata sandbox event feed (kept writes)\n\n"
    if let retry = options.retry { opening += "retry: \(retry)\n\n" }
    if let big = options.big {
      opening += "event: big\ndata: " + String(repeating: "x", count: big) + "\n\n"
    }
    guard Socket.send(fd, Array(head.utf8)), write(opening, options) else { return }
    var (last, sent) = (options.after, 0)
    while server.isRunning {
      let due = Date(timeIntervalSinceNow: Double(options.heartbeat) / 1000)
      let events = feed.events(after: last, waitingUntil: due) { server.isRunning }
      guard server.isRunning else { return }
      if events.isEmpty {
        guard write(": heartbeat\n\n", options) else { return }
        continue
      }
      for event in events {
        guard write(event.text, options) else { return }
        (last, sent) = (event.id, sent + 1)
        if let dropAfter = options.dropAfter, sent >= dropAfter { return }
      }
    }
  }

  /// Writes `text` as the options say (a byte at a time, or each field in two pieces).
  private func write(_ text: String, _ options: EventStreamOptions) -> Bool {
    let bytes = Array(text.utf8)
    if let drip = options.drip {
      for byte in bytes {
        guard server.isRunning, Socket.send(fd, [byte]) else { return false }
        Thread.sleep(forTimeInterval: Double(drip) / 1000)
      }
      return true
    }
    guard options.split else { return Socket.send(fd, bytes) }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      let field = Array((line + "\n").utf8)
      let half = min(2, field.count)
      guard Socket.send(fd, Array(field[..<half])) else { return false }
      Thread.sleep(forTimeInterval: 0.002)
      guard Socket.send(fd, Array(field[half...])) else { return false }
    }
    return true
  }
}
