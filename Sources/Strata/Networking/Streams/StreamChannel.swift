import Foundation
import StrataConcurrency

/// Hands what a streamed answer brings from the transport's delivery thread to the one task
/// reading it, a batch at a time (all a piece of the body completed), so a reader pays one
/// wake-up per piece, not per line or event. It holds at most `capacity` bytes' worth unread:
/// a batch past that is refused (the delivery thread is the session's, shared by every
/// request, and is never made to wait for one reader) — an event stream then reconnects once
/// the reader has caught up (``drained()``), any other stream ends.
final class StreamChannel<Element: Sendable>: Sendable {
  private struct State {
    var batches: [[Element]] = []
    var unread = 0
    var waiting: CheckedContinuation<[Element]?, any Error>?
    /// Waits for the reader to take everything held (``drained()``).
    var draining: CheckedContinuation<Void, Never>?
    var end: (any Error)??
    var producer: Task<Void, Never>?
  }

  /// Most bytes' worth of elements held unread.
  let capacity: Int
  private let state = Lock(State())

  init(capacity: Int) { self.capacity = capacity }

  /// Starts `producer` once (the first read): nothing is sent before something reads.
  func start(_ producer: () -> Task<Void, Never>) {
    state.withLock { state in
      guard state.producer == nil, state.end == nil else { return }
      state.producer = producer()
    }
  }

  /// What became of a batch.
  enum Push {
    case taken
    /// The reader has gone (or the stream ended): nothing more is wanted.
    case gone
    /// The reader is more than ``capacity`` bytes behind.
    case behind
  }

  /// Adds a batch worth `bytes` bytes of body.
  func push(_ batch: [Element], bytes: Int) -> Push {
    typealias Waiting = CheckedContinuation<[Element]?, any Error>
    if batch.isEmpty { return state.withLock { $0.end == nil ? .taken : .gone } }
    let (waiting, outcome) = state.withLock { state -> (Waiting?, Push) in
      guard state.end == nil else { return (nil, .gone) }
      if let waiting = state.waiting {
        state.waiting = nil
        return (waiting, .taken)
      }
      guard state.unread + bytes <= capacity else { return (nil, .behind) }
      state.batches.append(batch)
      state.unread += bytes
      return (nil, .taken)
    }
    waiting?.resume(returning: batch)
    return outcome
  }

  /// Ends the stream once what is held is read: with `error`, or cleanly.
  func finish(_ error: (any Error)? = nil) {
    let (waiting, draining) = state.withLock {
      state -> (CheckedContinuation<[Element]?, any Error>?, CheckedContinuation<Void, Never>?) in
      guard state.end == nil else { return (nil, nil) }
      state.end = .some(error)
      defer { (state.waiting, state.draining) = (nil, nil) }
      return (state.batches.isEmpty ? state.waiting : nil, state.draining)
    }
    draining?.resume()
    guard let waiting else { return }
    if let error { waiting.resume(throwing: error) } else { waiting.resume(returning: nil) }
  }

  /// The reader has gone: the request ends at once.
  func cancel() {
    let (producer, waiting, draining) = state.withLock { state in
      if state.end == nil { state.end = .some(CancellationError()) }
      state.batches.removeAll()
      defer { (state.waiting, state.draining) = (nil, nil) }
      return (state.producer, state.waiting, state.draining)
    }
    producer?.cancel()
    waiting?.resume(throwing: CancellationError())
    draining?.resume()
  }

  /// Returns once the reader has taken everything held, or the stream has ended. One waiter
  /// at a time: the producer.
  func drained() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = state.withLock { state -> Bool in
        guard !state.batches.isEmpty, state.end == nil else { return true }
        state.draining = continuation
        return false
      }
      if now { continuation.resume() }
    }
  }

  /// Whether ``drained()`` is waiting for the reader.
  var isWaitingToDrain: Bool { state.withLock { $0.draining != nil } }

  /// The next batch: all that is held, or what arrives next; nil at the end.
  func next() async throws -> [Element]? {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let (ready, draining) = state.withLock {
          state -> (Result<[Element]?, any Error>?, CheckedContinuation<Void, Never>?) in
          if !state.batches.isEmpty {
            let batch = state.batches.count == 1 ? state.batches[0] : state.batches.flatMap { $0 }
            state.batches.removeAll(keepingCapacity: true)
            state.unread = 0
            defer { state.draining = nil }
            return (.success(batch), state.draining)
          }
          switch state.end {
          case .some(.some(let error)): return (.failure(error), nil)
          case .some(.none): return (.success(nil), nil)
          case .none:
            state.waiting = continuation
            return (nil, nil)
          }
        }
        draining?.resume()
        if let ready { continuation.resume(with: ready) }
      }
    } onCancel: {
      cancel()
    }
  }
}
