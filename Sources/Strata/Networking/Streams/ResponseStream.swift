import Foundation

/// An answer read as it arrives (``NetworkService/stream(_:as:state:)``): its pieces, lines, JSON
/// values or server-sent events, in order. Nothing is sent until the first element is asked
/// for; the request ends when the reading task is cancelled, when the loop stops, or when
/// the stream is released. One reader: two iterators share one stream's elements.
public struct ResponseStream<Element: Sendable>: AsyncSequence, Sendable {
  let source: StreamSource<Element>

  init(source: StreamSource<Element>) { self.source = source }

  /// A stream of `elements` that then ends — with `error`, when given: what a fake
  /// ``Networking`` of an app's test hands out.
  public init(_ elements: [Element], ending error: (any Error)? = nil) {
    let channel = StreamChannel<Element>(capacity: .max)
    _ = channel.push(elements, bytes: 0)
    channel.finish(error)
    source = StreamSource(channel: channel, producer: { _ in Task {} }, sessionCheck: {})
  }

  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: source) }

  /// Hands out a batch that has arrived element by element, asking for the next batch only
  /// when it is used up.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let source: StreamSource<Element>
    private var batch: [Element] = []
    private var index = 0

    init(source: StreamSource<Element>) { self.source = source }

    /// The next element; nil once the stream has ended.
    /// - Throws: ``NetworkError`` (the last connection's failure, a line over the size
    ///   limit, a JSON line that does not decode, a session that ended), or
    ///   `CancellationError`.
    public mutating func next() async throws -> Element? {
      try await next(isolation: nil)
    }

    /// The same, on the caller's own executor: an element already held is handed over
    /// without a hop to another executor and back (one per element otherwise).
    public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
      if index < batch.count {
        defer { index += 1 }
        return batch[index]
      }
      guard let next = try await source.next(), !next.isEmpty else { return nil }
      (batch, index) = (next, 1)
      return next[0]
    }
  }
}

/// What a ``ResponseStream`` reads from: a channel, the producer started at the first read,
/// and the check that the session the stream was opened in still holds. Releasing the last
/// stream or iterator of it ends the request.
final class StreamSource<Element: Sendable>: Sendable {
  let channel: StreamChannel<Element>
  private let producer: @Sendable (StreamChannel<Element>) -> Task<Void, Never>
  private let sessionCheck: @Sendable () async throws -> Void

  init(
    channel: StreamChannel<Element>,
    producer: @escaping @Sendable (StreamChannel<Element>) -> Task<Void, Never>,
    sessionCheck: @escaping @Sendable () async throws -> Void
  ) {
    (self.channel, self.producer, self.sessionCheck) = (channel, producer, sessionCheck)
  }

  deinit { channel.cancel() }

  func next() async throws -> [Element]? {
    channel.start { producer(channel) }
    guard let batch = try await channel.next() else { return nil }
    do {
      // What arrived for a session that has ended since is not its reader's to see.
      try await sessionCheck()
    } catch {
      channel.cancel()
      throw error
    }
    return batch
  }
}
