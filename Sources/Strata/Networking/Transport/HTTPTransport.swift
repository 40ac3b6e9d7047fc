import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one seam between Strata and the network: send a request's head and body, get the
/// response head and its body as it arrives. ``URLSessionTransport`` is the real one; tests
/// use `MockTransport` from `StrataTesting`. Every transport streams: buffering under a size
/// limit, progress, time to first byte, downloads to a file and event streams are built on
/// this one call, so a transport of an app's — or a decorator that forwards to another — gets
/// them all.
/// ```swift
/// struct Counted: HTTPTransport {
///   let base: any HTTPTransport
///   let counter: Counter
///   func send(_ request: URLRequest, body: HTTPBody?, limits: TransferLimits)
///     async throws -> (HTTPURLResponse, HTTPBody)
///   {
///     counter.increment()
///     return try await base.send(request, body: body, limits: limits)
///   }
/// }
/// ```
public protocol HTTPTransport: Sendable {
  /// One HTTP exchange: sends `request` with `body` (the request's own `httpBody` is not
  /// used) and returns once the response head is in, with its body still arriving. The whole
  /// exchange, to the body's last byte, must end within `limits.deadline` (real time), else
  /// fail — or its body fail — with `URLError(.timedOut)`; a transport that cannot stop its
  /// own I/O wraps its exchange in ``TransferLimits/enforce(_:)``. When the reader of the
  /// answer's body stops early (a size limit, a cancelled call) the transfer should stop.
  /// - Throws: `URLError` for transport failures, `CancellationError` when cancelled.
  func send(_ request: URLRequest, body: HTTPBody?, limits: TransferLimits) async throws
    -> (HTTPURLResponse, HTTPBody)
}

/// How long one exchange may take. The size limit is the reader's: the service reads a body
/// whole with ``HTTPBody/collect(upTo:)``, and a stream or a download applies its own.
public struct TransferLimits: Sendable, Equatable {
  /// Real time for the whole exchange, from sending to the last body byte.
  public var deadline: Duration

  /// Limits for one exchange — what ``NetworkService`` passes each attempt; a test of an
  /// app's own transport builds them to call it the same way.
  /// - Parameter deadline: Real time for the whole exchange (default 60 s).
  public init(deadline: Duration = .seconds(60)) { self.deadline = deadline }

  /// Runs `exchange` in a task cancelled when the deadline passes — for a transport that
  /// cannot abort its own I/O and answers with a body in memory.
  /// - Throws: `URLError(.timedOut)`, or what `exchange` throws.
  public func enforce(
    _ exchange: @escaping @Sendable () async throws -> (HTTPURLResponse, HTTPBody)
  ) async throws -> (HTTPURLResponse, HTTPBody) {
    let work = Task { try await exchange() }
    let expired = ExpiryFlag()
    let timer = DeadlineWatchdog.shared.schedule(after: deadline) {
      expired.set()
      work.cancel()
    }
    defer { DeadlineWatchdog.shared.cancel(timer) }
    do {
      return try await withTaskCancellationHandler {
        try await work.value
      } onCancel: {
        work.cancel()
      }
    } catch {
      if expired.isSet { throw URLError(.timedOut) }
      throw error
    }
  }
}

/// Set once by the deadline, read after the exchange ends.
private final class ExpiryFlag: Sendable {
  private let value = AtomicInt(0)
  func set() { value.storeReleasing(1) }
  var isSet: Bool { value.load() != 0 }
}
