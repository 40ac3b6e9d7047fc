import Foundation
import StrataConcurrency

/// Fans one stream of values out to any number of `AsyncStream` subscribers.
final class EventBroadcaster<Event: Sendable>: Sendable {
  private let continuations = Lock<[UUID: AsyncStream<Event>.Continuation]>([:])

  func stream() -> AsyncStream<Event> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Event.self, bufferingPolicy: .bufferingNewest(64))
    let id = UUID()
    continuations.withLock { $0[id] = continuation }
    continuation.onTermination = { [weak self] _ in
      self?.continuations.withLock { _ = $0.removeValue(forKey: id) }
    }
    return stream
  }

  func yield(_ event: Event) {
    for continuation in continuations.withLock({ Array($0.values) }) { continuation.yield(event) }
  }
}
