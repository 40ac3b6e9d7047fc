import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Why a stream stopped at a limit of its own (a line, or a reader too far behind): the
/// sentence of its ``NetworkError/Kind/responseTooLarge(limit:)``.
struct StreamLimitExceeded: Error, CustomStringConvertible {
  let description: String

  static func error(_ limit: Int, _ sentence: String) -> NetworkError {
    NetworkError(
      .responseTooLarge(limit: limit), underlying: StreamLimitExceeded(description: sentence))
  }
}

/// Where a streamed answer's body goes as it arrives: parsed on the transport's delivery
/// thread (a piece at a time, in order) and handed to the reader through a
/// ``StreamChannel``. A body it does not take (an error's, an event stream's `204` or other
/// content type) stays in memory for the call to judge.
final class StreamSink<Parser: StreamParser>: ResponseBodySink {
  private struct State {
    var parser: Parser
    /// This connection's: bytes of body, elements made, whether its body was taken.
    var bytes = 0
    var elements = 0
    var taken = false
    /// The content type of a `2xx` the parser does not read (not an event stream).
    var declined: String?
    /// Where the reader's elements end: the resume point of the last one handed over.
    var handedUpTo: String?
    /// The reader fell behind on this connection and what was not handed over can be asked
    /// for again from ``handedUpTo``.
    var fellBehind = false
    /// What the stream's observer was last told.
    var told: StreamState?
  }

  let channel: StreamChannel<Parser.Element>
  private let state: Lock<State>
  private let observer: (@Sendable (StreamState) -> Void)?

  init(
    _ parser: Parser, channel: StreamChannel<Parser.Element>,
    state observer: (@Sendable (StreamState) -> Void)? = nil
  ) {
    (state, self.channel, self.observer) = (Lock(State(parser: parser)), channel, observer)
  }

  /// Tells the stream's observer of `new`, once per change and nothing after ``StreamState/closed``.
  func tell(_ new: StreamState) {
    guard let observer else { return }
    let changed = state.withLock { state -> Bool in
      guard state.told != new, state.told != .closed else { return false }
      state.told = new
      return true
    }
    if changed { observer(new) }
  }

  /// - Throws: for a `2xx` the parser does not read, so the transfer stops at once (such a
  ///   body may never end); ``declined`` says why.
  func begin(_ response: HTTPURLResponse) throws -> Bool {
    let status = response.statusCode
    guard (200..<300).contains(status), status != 204 else { return false }
    let accepted = state.withLock { state in
      state.taken = state.parser.accepts(response)
      if !state.taken {
        state.declined = response.value(forHTTPHeaderField: "Content-Type") ?? "no content type"
      }
      return state.taken
    }
    guard accepted else { throw NetworkError(.invalidResponse) }
    tell(.open)
    return true
  }

  /// The content type of this connection's answer when it was not one to read.
  var declined: String? { state.withLock { $0.declined } }

  func write(_ piece: Data) throws {
    var batch: [Parser.Element] = []
    do {
      try state.withLock { state in
        state.bytes += piece.count
        defer { state.elements += batch.count }
        try state.parser.feed(piece, into: &batch)
      }
    } catch {
      // What the piece completed before the line that ends the stream is the reader's.
      try hand(batch, bytes: piece.count)
      throw error
    }
    try hand(batch, bytes: piece.count)
  }

  /// The body ended whole: what its last bytes complete.
  func finishBody() throws {
    var batch: [Parser.Element] = []
    try state.withLock { state in
      guard state.taken else { return }
      try state.parser.finish(into: &batch)
      state.elements += batch.count
    }
    try hand(batch, bytes: 0)
  }

  /// A new connection: its counts start at zero, and what the last one left half read is
  /// dropped.
  func startConnection() {
    state.withLock { state in
      if state.taken || state.bytes > 0 { state.parser.reset() }
      (state.bytes, state.elements, state.taken, state.declined) = (0, 0, false, nil)
    }
  }

  /// This connection's body bytes, elements made, and whether its body was taken.
  var connection: (bytes: Int, elements: Int, taken: Bool) {
    state.withLock { ($0.bytes, $0.elements, $0.taken) }
  }

  /// Reads the parser (an event stream's last id and reconnection time).
  func parser<Value>(_ read: (Parser) -> Value) -> Value { state.withLock { read($0.parser) } }

  /// After a connection ended because the reader fell behind: whether the stream resumes
  /// where the reader's elements end (an event stream whose events carry ids); if so the next
  /// connection asks for what follows them.
  func resumeAfterFallingBehind() -> Bool {
    state.withLock { state in
      defer { state.fellBehind = false }
      guard state.fellBehind, Parser.reconnects, let id = state.handedUpTo else { return false }
      state.parser.resume(from: id)
      return true
    }
  }

  private func hand(_ batch: [Parser.Element], bytes: Int) throws {
    switch channel.push(batch, bytes: bytes) {
    case .taken:
      if let last = batch.last, let point = Parser.resumePoint(after: last) {
        state.withLock { $0.handedUpTo = point }
      }
    case .gone: throw CancellationError()
    case .behind:
      // The batch is dropped: a stream that can resume asks for it again once the reader
      // has caught up (flow control by reconnection, since the transport cannot pause).
      state.withLock { $0.fellBehind = true }
      throw StreamLimitExceeded.error(
        channel.capacity,
        "the stream's reader fell more than \(channel.capacity) bytes behind; the stream was stopped"
      )
    }
  }
}
