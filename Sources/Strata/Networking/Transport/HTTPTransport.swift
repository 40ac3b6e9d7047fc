import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one seam between Strata and the network: send a request within limits, get bytes and a
/// response. `URLSessionTransport` is the real one (it also streams file bodies, downloads and
/// progress; another transport gets such a request with its body as a stream and answers it
/// whole); tests use `MockTransport` from `StrataTesting`.
public protocol HTTPTransport: Sendable {
  /// One HTTP exchange that must finish within `limits.deadline` (real time), else fails with
  /// `URLError(.timedOut)`, and whose body may not grow past `limits.maxResponseSize` bytes,
  /// else fails with `URLError(.dataLengthExceedsMaximum)`. A transport that cannot stop its
  /// own I/O wraps its exchange in `TransferLimits/enforce(_:)`.
  /// - Throws: `URLError` for transport failures, `CancellationError` when cancelled.
  func send(_ request: URLRequest, limits: TransferLimits) async throws -> (Data, HTTPURLResponse)

}

/// How long one exchange may take and how large its response body may grow.
public struct TransferLimits: Sendable, Equatable {
  /// Real time for the whole exchange, from sending to the last body byte.
  public var deadline: Duration
  /// Largest body accepted, in bytes.
  public var maxResponseSize: Int

  /// Limits for one exchange — what ``NetworkService`` passes each attempt; a test of an
  /// app's own transport builds them to call it the same way.
  /// - Parameter deadline: Real time for the whole exchange (default 60 s).
  /// - Parameter maxResponseSize: Largest body accepted, in bytes (default 10 MiB).
  public init(
    deadline: Duration = .seconds(60),
    maxResponseSize: Int = NetworkOptions.defaultMaxResponseSize
  ) {
    self.deadline = deadline
    self.maxResponseSize = maxResponseSize
  }

  /// Runs `exchange` in a task cancelled when the deadline passes, then refuses a body over
  /// the size limit — for a transport that can neither abort its I/O nor stream (a streaming
  /// one stops the transfer itself as soon as the limit is passed, so memory stays bounded).
  /// - Throws: `URLError(.timedOut)`, `URLError(.dataLengthExceedsMaximum)`, or what
  ///   `exchange` throws.
  public func enforce(
    _ exchange: @escaping @Sendable () async throws -> (Data, HTTPURLResponse)
  ) async throws -> (Data, HTTPURLResponse) {
    let work = Task { try await exchange() }
    let expired = ExpiryFlag()
    let timer = DeadlineWatchdog.shared.schedule(after: deadline) {
      expired.set()
      work.cancel()
    }
    defer { DeadlineWatchdog.shared.cancel(timer) }
    let (data, response): (Data, HTTPURLResponse)
    do {
      (data, response) = try await withTaskCancellationHandler {
        try await work.value
      } onCancel: {
        work.cancel()
      }
    } catch {
      if expired.isSet { throw URLError(.timedOut) }
      throw error
    }
    guard data.count <= maxResponseSize else { throw URLError(.dataLengthExceedsMaximum) }
    return (data, response)
  }
}

/// Set once by the deadline, read after the exchange ends.
private final class ExpiryFlag: Sendable {
  private let value = AtomicInt(0)
  func set() { value.storeReleasing(1) }
  var isSet: Bool { value.load() != 0 }
}
