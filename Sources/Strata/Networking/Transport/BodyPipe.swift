import Foundation

/// The pieces of a body between the thread that receives them (a session's delegate) and
/// whoever reads them. The writer never waits: on Linux it is FoundationNetworking's work
/// queue, which every other transfer of the session — and every new task — needs, so a writer
/// blocked on a reader that runs on the cooperative pool could stop the process. Memory stays
/// flat another way: a reader that consumes synchronously (a download's file, an event
/// stream's parser: ``drain(into:)``) is handed each piece on the writer's thread, so the
/// transfer goes no faster than it takes them; a reader that gathers the body whole
/// (``collect(upTo:)``) stops the transfer the moment the body passes its limit. Only an
/// app's own `for try await` over the body buffers what it has not read yet.
///
/// The reader leaves by reading to the end, by a limit, by being cancelled, or by dropping the
/// body (``Reader``'s `deinit`): the writer is told through ``onStop(_:)``, and every later
/// piece is refused.
final class BodyPipe: @unchecked Sendable {
  // Every stored `var` is read and written only while holding `lock`; a sink is written to
  // while holding it, so its pieces arrive one at a time and in order.
  private let lock = NSLock()
  private var pieces: [Data] = []
  private var first = 0
  /// Bytes received so far, and the most the reader takes (``collect(upTo:)``).
  private var received = 0
  private var limit = Int.max
  /// Set once the writer ended the body: nil error for a whole body.
  private var ended: (any Error)??
  private var stopped = false
  /// Why reading stopped (a limit, a sink's error, cancellation): what a later read throws.
  private var stopError: any Error = CancellationError()
  private var stop: (@Sendable () -> Void)?
  private var reader: CheckedContinuation<Data?, any Error>?
  private var sink: (any ResponseBodySink)?
  private var drained: CheckedContinuation<Void, any Error>?

  /// The reading end; when the last copy of the body that holds it goes, reading stops.
  final class Reader: Sendable {
    let pipe: BodyPipe
    init(_ pipe: BodyPipe) { self.pipe = pipe }
    deinit { pipe.stopReading() }
  }

  // MARK: Writer

  /// Hands a piece over: to the sink now, to a waiting reader, or kept for the next read.
  /// False once the reader is gone (or the piece broke its limit, or its sink threw).
  func push(_ piece: Data) -> Bool {
    lock.lock()
    guard !stopped, ended == nil else {
      lock.unlock()
      return false
    }
    received += piece.count
    var failure: (any Error)?
    if received > limit {
      failure = URLError(.dataLengthExceedsMaximum)
    } else if let sink {
      do { try sink.write(piece) } catch { failure = error }
    } else if let reader {
      self.reader = nil
      lock.unlock()
      reader.resume(returning: piece)
      return true
    } else {
      pieces.append(piece)
    }
    lock.unlock()
    if let failure { stopReading(failure) }
    return failure == nil
  }

  /// Ends the body (whole when `error` is nil); a second end is ignored.
  func finish(_ error: (any Error)? = nil) {
    lock.lock()
    guard ended == nil else { return lock.unlock() }
    ended = .some(error)
    let (reader, drained) = (self.reader, self.drained)
    (self.reader, self.drained, sink) = (nil, nil, nil)
    lock.unlock()
    if let error {
      reader?.resume(throwing: error)
      drained?.resume(throwing: error)
    } else {
      reader?.resume(returning: nil)
      drained?.resume()
    }
  }

  /// Runs `stop` when the reader leaves before the end (at once if it has).
  func onStop(_ stop: @escaping @Sendable () -> Void) {
    let now = lock.withLock {
      if stopped { return true }
      self.stop = stop
      return false
    }
    if now { stop() }
  }

  // MARK: Reader

  /// The next piece, nil at the end.
  /// - Throws: the writer's error, or `CancellationError` when the reading task is cancelled
  ///   (which stops the body).
  func next() async throws -> Data? {
    if let piece = lock.withLock({ takeFirst() }) { return piece }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        lock.lock()
        if let piece = takeFirst() {
          lock.unlock()
          continuation.resume(returning: piece)
        } else if stopped {
          lock.unlock()
          continuation.resume(throwing: stopError)
        } else if let ended {
          lock.unlock()
          if let error = ended {
            continuation.resume(throwing: error)
          } else {
            continuation.resume(returning: nil)
          }
        } else {
          reader = continuation
          lock.unlock()
        }
      }
    } onCancel: {
      stopReading(CancellationError())
    }
  }

  /// Every piece to the end, refusing more than `limit` bytes (which stops the transfer as
  /// that byte arrives).
  func collect(upTo limit: Int) async throws -> Data {
    try refuse(past: limit)
    var whole = Data()
    while let piece = try await next() {
      if whole.isEmpty { whole = piece } else { whole.append(piece) }
    }
    return whole
  }

  /// Refuses, from now on, a body past `limit` bytes as the byte arrives (the transfer stops).
  /// - Throws: `URLError(.dataLengthExceedsMaximum)` when more has arrived already.
  func refuse(past limit: Int) throws {
    let over = lock.withLock {
      self.limit = limit
      return received > limit
    }
    guard over else { return }
    stopReading(URLError(.dataLengthExceedsMaximum))
    throw URLError(.dataLengthExceedsMaximum)
  }

  /// Hands every piece to `sink` on the writer's thread as it arrives (those already here
  /// first), until the end.
  /// - Throws: what the sink or the writer throws, or `CancellationError`.
  func drain(into sink: any ResponseBodySink) async throws {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        lock.lock()
        do {
          for piece in pieces[first...] { try sink.write(piece) }
          (pieces, first) = ([], 0)
        } catch {
          lock.unlock()
          stopReading(error)
          return continuation.resume(throwing: error)
        }
        if stopped {
          lock.unlock()
          return continuation.resume(throwing: stopError)
        }
        if let ended {
          lock.unlock()
          if let error = ended { return continuation.resume(throwing: error) }
          return continuation.resume()
        }
        (self.sink, drained) = (sink, continuation)
        lock.unlock()
      }
    } onCancel: {
      stopReading(CancellationError())
    }
  }

  /// The reader is gone: the writer is told, and a waiting read gets `error`.
  func stopReading(_ error: any Error = CancellationError()) {
    lock.lock()
    guard !stopped else { return lock.unlock() }
    (stopped, stopError) = (true, error)
    let (stop, reader, drained) = (self.stop, self.reader, self.drained)
    (self.stop, self.reader, self.drained, sink, pieces, first) = (nil, nil, nil, nil, [], 0)
    let whole = ended != nil
    lock.unlock()
    reader?.resume(throwing: error)
    drained?.resume(throwing: error)
    if !whole { stop?() }
  }

  /// The oldest waiting piece, under the lock.
  private func takeFirst() -> Data? {
    guard first < pieces.count else { return nil }
    let piece = pieces[first]
    first += 1
    if first == pieces.count { (pieces, first) = ([], 0) }
    return piece
  }
}
