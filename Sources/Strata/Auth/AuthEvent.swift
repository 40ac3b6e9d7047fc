import Foundation
import StrataConcurrency

/// A change of the session that a UI or CLI may want to show ("signed out, log in again").
public enum AuthEvent: Sendable, Equatable {
  /// Credentials were stored after a login.
  case signedIn
  /// The access token was renewed.
  case refreshed
  /// The session ended, and why.
  case signedOut(SignOutReason)
}

/// Why a session ended.
public enum SignOutReason: Sendable, Equatable {
  /// The user (or app) asked.
  case requested
  /// The server rejected the refresh token.
  case refreshRejected
  /// Too many refreshes in a short time: the server keeps rejecting new tokens.
  case refreshLoop
  /// The server rejected an access token it had just issued.
  case tokenRejected
}

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
