import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A body that goes or comes in pieces: what an ``HTTPTransport`` is given to send and what it
/// answers with. Bytes already in memory, a file read as it is sent, or pieces arriving from
/// the network — read them with `for try await piece in body`, or whole with
/// ``collect(upTo:)``. A body that comes from the network can be read once.
///
/// A transport answers as soon as the response head is in and hands the body over still
/// arriving, so everything built on the one requirement streams through any transport and any
/// middleware: a download goes to its file and an event stream to its reader as the bytes come.
/// ```swift
/// let (stream, writer) = HTTPBody.makeStream(length: 5)
/// writer.write(Data("hel".utf8))
/// writer.write(Data("lo".utf8))
/// writer.finish()
/// let whole = try await stream.collect(upTo: 1 << 20)  // "hello"
/// ```
public struct HTTPBody: AsyncSequence, Sendable {
  public typealias Element = Data

  enum Source: Sendable {
    case bytes(Data)
    case file(URL)
    case pipe(BodyPipe.Reader)
    case tapped(BodyTap)
  }

  let source: Source
  /// The body's length in bytes when known (a `Content-Length`, a file's size); nil when not.
  public let length: Int64?
  /// Told the bytes read from the body so far, as a transport takes them to send.
  let sent: ProgressReport?

  init(_ source: Source, length: Int64?, sent: ProgressReport? = nil) {
    (self.source, self.length, self.sent) = (source, length, sent)
  }

  /// A body of bytes in memory.
  public init(_ bytes: Data) { self.init(.bytes(bytes), length: Int64(bytes.count)) }

  /// A body read from a file as it is sent, its length the file's size now.
  /// - Throws: `URLError(.fileDoesNotExist)` when it cannot be read.
  public init(contentsOf file: URL) throws {
    guard let size = try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
    else { throw URLError(.fileDoesNotExist) }
    self.init(.file(file), length: Int64(size))
  }

  /// A body whose pieces the returned writer hands over as they come — for a transport of an
  /// app's that streams. The writer never waits: a download's file or an event stream's
  /// parser takes each piece on the writer's thread as it is written, a read of the whole
  /// body stops it at its size limit, and ``Writer/write(_:)`` returns false once the reader
  /// is gone.
  /// - Parameter length: The body's announced length in bytes, when known.
  public static func makeStream(length: Int64? = nil) -> (HTTPBody, Writer) {
    let pipe = BodyPipe()
    return (HTTPBody(.pipe(BodyPipe.Reader(pipe)), length: length), Writer(pipe: pipe))
  }

  /// The body whole, read up to `limit` bytes; a body announced or found longer is refused
  /// at once, and its transfer stopped.
  /// - Throws: `URLError(.dataLengthExceedsMaximum)` over the limit, or what reading throws.
  public func collect(upTo limit: Int) async throws -> Data {
    try await collect(upTo: limit, progress: nil)
  }

  /// As ``collect(upTo:)``, `progress` told the bytes received after each piece (once, with
  /// zero, for an empty body).
  func collect(upTo limit: Int, progress: ProgressReport?) async throws -> Data {
    let over = URLError(.dataLengthExceedsMaximum)
    if let length, length > Int64(limit) {
      if case .pipe(let reader) = source { reader.pipe.stopReading(over) }
      if case .tapped(let tap) = source { tap.end(over) }
      throw over
    }
    switch (source, progress) {
    case (.bytes(let bytes), nil):
      sent?(TransferProgress(.sending, completed: Int64(bytes.count), total: length))
      return bytes
    // The pipe refuses the byte past the limit as it arrives, and stops the transfer.
    case (.pipe(let reader), nil): return try await reader.pipe.collect(upTo: limit)
    default:
      if case .pipe(let reader) = source { try reader.pipe.refuse(past: limit) }
      var whole = Data()
      for try await piece in self {
        guard whole.count + piece.count <= limit else { throw over }
        whole.append(piece)
        progress?(TransferProgress(.receiving, completed: Int64(whole.count), total: length))
      }
      if whole.isEmpty { progress?(TransferProgress(.receiving, completed: 0, total: 0)) }
      return whole
    }
  }

  /// Hands every piece to `sink` as it comes — on the writer's thread for a body arriving
  /// from the network, so the transfer goes no faster than the sink takes it.
  /// - Throws: what the sink or reading throws.
  func drain(into sink: any ResponseBodySink) async throws {
    switch source {
    case .pipe(let reader): try await reader.pipe.drain(into: sink)
    case .tapped(let tap):
      do {
        try await tap.base.drain(into: TappedSink(tap: tap, sink: sink))
        tap.end(nil)
      } catch {
        tap.end(error)
        throw error
      }
    case .bytes, .file:
      for try await piece in self { try sink.write(piece) }
    }
  }

  /// The same body, `tap` shown each piece as it is read and told how reading ended.
  func tapped(
    _ piece: @escaping @Sendable (Data) -> Void, end: @escaping @Sendable ((any Error)?) -> Void
  ) -> HTTPBody {
    HTTPBody(.tapped(BodyTap(self, piece: piece, end: end)), length: length, sent: sent)
  }

  /// The same body, telling `report` the bytes taken from it as they are sent.
  func reporting(_ report: ProgressReport?) -> HTTPBody {
    HTTPBody(source, length: length, sent: report)
  }

  /// Tells the progress of sending: `done` bytes of `expected` (negative: unknown) — for a
  /// transport that sends the body its own way (an upload from the file).
  func didSend(_ done: Int64, of expected: Int64) {
    sent?(TransferProgress(.sending, completed: done, total: expected >= 0 ? expected : length))
  }

  public func makeAsyncIterator() -> Iterator { Iterator(self) }

  /// Reads the pieces in order; a file in 64 KiB pieces.
  public struct Iterator: AsyncIteratorProtocol {
    private let body: HTTPBody
    private var handed: Int64 = 0
    private var file: PrivateFile.Pieces?
    private var inner: BodyTap.Cursor?
    private var done = false

    init(_ body: HTTPBody) { self.body = body }

    public mutating func next() async throws -> Data? {
      guard !done else { return nil }
      let piece: Data?
      switch body.source {
      case .bytes(let bytes):
        done = true
        piece = bytes.isEmpty ? nil : bytes
      case .pipe(let reader): piece = try await reader.pipe.next()
      case .file(let url): piece = try readFile(url)
      case .tapped(let tap):
        if inner == nil { inner = BodyTap.Cursor(tap) }
        piece = try await inner?.next()
      }
      guard let piece else {
        (done, file) = (true, nil)
        return nil
      }
      handed += Int64(piece.count)
      body.sent?(TransferProgress(.sending, completed: handed, total: body.length))
      return piece
    }

    private mutating func readFile(_ url: URL) throws -> Data? {
      if file == nil { file = try PrivateFile.Pieces(url.path) }
      return try file?.next()
    }
  }

  /// Hands a streamed body's pieces to its reader (``HTTPBody/makeStream(length:)``); safe
  /// from any one thread at a time.
  public struct Writer: Sendable {
    let pipe: BodyPipe

    /// Hands over the next piece.
    /// - Returns: false once the reader is gone (cancelled, stopped at a limit, or the body
    ///   dropped): stop producing.
    @discardableResult
    public func write(_ piece: Data) -> Bool { pipe.push(piece) }

    /// Ends the body: whole when `error` is nil, else the reader gets `error`.
    public func finish(throwing error: (any Error)? = nil) { pipe.finish(error) }

    /// Runs `stop` once the reader is gone before the body ended — where a transport cancels
    /// its transfer. Runs at once when it already is.
    public func onStop(_ stop: @escaping @Sendable () -> Void) { pipe.onStop(stop) }
  }
}

/// A body read through an observer: each piece shown as it passes, and how reading ended
/// (nil: whole), once.
final class BodyTap: Sendable {
  let base: HTTPBody
  let piece: @Sendable (Data) -> Void
  private let ended: Lock<Boxed<@Sendable ((any Error)?) -> Void>?>

  init(
    _ base: HTTPBody, piece: @escaping @Sendable (Data) -> Void,
    end: @escaping @Sendable ((any Error)?) -> Void
  ) {
    (self.base, self.piece, ended) = (base, piece, Lock(Boxed(end)))
  }

  /// Tells the end, the first time.
  func end(_ error: (any Error)?) {
    let told = ended.withLock { end in
      defer { end = nil }
      return end
    }
    told?.value(error)
  }

  /// Reads the base body for one iterator.
  final class Cursor: @unchecked Sendable {
    // Used by one iterator, from one task at a time.
    private var iterator: HTTPBody.Iterator
    private let tap: BodyTap

    init(_ tap: BodyTap) { (self.tap, iterator) = (tap, tap.base.makeAsyncIterator()) }

    func next() async throws -> Data? {
      do {
        guard let next = try await iterator.next() else {
          tap.end(nil)
          return nil
        }
        tap.piece(next)
        return next
      } catch {
        tap.end(error)
        throw error
      }
    }
  }
}

/// A sink that shows its tap each piece before writing it on.
private struct TappedSink: ResponseBodySink {
  let tap: BodyTap
  let sink: any ResponseBodySink

  func begin(_ response: HTTPURLResponse) throws -> Bool { try sink.begin(response) }
  func write(_ bytes: Data) throws {
    tap.piece(bytes)
    try sink.write(bytes)
  }
}
