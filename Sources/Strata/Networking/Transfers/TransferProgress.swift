import StrataConcurrency

/// How far one call has got — the one progress type of the library, given to the `progress:`
/// argument of ``Networking/send(_:progress:)``, ``Networking/download(_:progress:)`` and
/// ``LocalStore/sync(only:maxAttempts:progress:send:)``.
///
/// A transfer counts bytes: of the request body while it goes (``Direction-swift.enum/sending``),
/// then of the answer's body as it arrives (``Direction-swift.enum/receiving``; a resumed
/// download counts what was on disk as completed). A sync counts changes, all `sending`.
/// A handler is called on the transport's thread, in order: it must return quickly.
public struct TransferProgress: Sendable, Equatable {
  /// Which way the units counted go.
  public enum Direction: Sendable, Equatable {
    /// The request body, or a sync's changes.
    case sending
    /// The answer's body.
    case receiving
  }

  public let direction: Direction
  /// Units done: bytes, or changes sent.
  public let completed: Int64
  /// Units in all, when known (`Content-Length`, a `Content-Range`'s total, the changes
  /// queued); nil when the server did not say.
  public let total: Int64?

  public init(_ direction: Direction, completed: Int64, total: Int64?) {
    (self.direction, self.completed, self.total) = (direction, completed, total)
  }

  /// 0…1, when the total is known.
  public var fraction: Double? {
    total.map { $0 > 0 ? min(1, Double(completed) / Double($0)) : 1 }
  }
}

/// Where a call tells its ``TransferProgress``.
typealias ProgressReport = @Sendable (TransferProgress) -> Void

/// A call's progress handler, shut when the call returns: a transport's late callback (a
/// delegate message queued behind the completion) reaches nobody after the caller moved on.
final class ProgressGate: Sendable {
  private let handler: Lock<Boxed<ProgressReport>?>

  init(_ handler: @escaping ProgressReport) { self.handler = Lock(Boxed(handler)) }

  /// Tells the handler, unless the call has returned. Held while the handler runs, so a
  /// report never overtakes ``close()``.
  func report(_ progress: TransferProgress) {
    handler.withLock { $0?.value(progress) }
  }

  func close() { handler.withLock { $0 = nil } }

  /// A gate around `handler`, and what to report through (nil: nothing to tell).
  static func around(_ handler: ProgressReport?) -> (ProgressGate?, ProgressReport?) {
    guard let handler else { return (nil, nil) }
    let gate = ProgressGate(handler)
    return (gate, gate.report)
  }
}
