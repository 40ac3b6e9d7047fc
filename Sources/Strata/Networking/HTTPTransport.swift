import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one seam between Strata and the network: send a request, get bytes and a response.
/// `URLSessionTransport` is the real one; tests use `MockTransport` from `StrataTesting`.
public protocol HTTPTransport: Sendable {
  /// Performs one HTTP exchange.
  /// - Returns: The body and the HTTP response.
  /// - Throws: `URLError` for transport failures, `CancellationError` when cancelled.
  func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)

  /// Performs one exchange that must finish within `deadline` (real time), else fails with
  /// `URLError(.timedOut)`. The default runs ``send(_:)`` in a task cancelled at the deadline;
  /// a transport that can abort its own I/O implements it directly, which is cheaper (no extra
  /// task, no thread hand-off).
  /// - Parameters:
  ///   - request: The fully built request.
  ///   - deadline: Time allowed for the whole exchange.
  /// - Returns: The body and the HTTP response.
  /// - Throws: `URLError(.timedOut)` when time runs out, or what ``send(_:)`` throws.
  func send(_ request: URLRequest, deadline: Duration) async throws -> (Data, HTTPURLResponse)

  /// Performs one exchange within `deadline` whose body may not grow past `maxResponseSize`
  /// bytes, else fails with `URLError(.dataLengthExceedsMaximum)`. A transport that streams
  /// implements it directly and stops the transfer as soon as the limit is passed, so memory
  /// stays bounded against an endless body; the default checks the size after ``send(_:deadline:)``.
  func send(_ request: URLRequest, deadline: Duration, maxResponseSize: Int) async throws -> (
    Data, HTTPURLResponse
  )
}

extension HTTPTransport {
  /// Runs ``send(_:)`` in a task that is cancelled when the deadline passes.
  /// - Returns: The body and the HTTP response.
  /// - Throws: `URLError(.timedOut)` or what ``send(_:)`` throws.
  public func send(_ request: URLRequest, deadline: Duration) async throws -> (
    Data, HTTPURLResponse
  ) {
    let work = Task { try await send(request) }
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

extension HTTPTransport {
  /// Runs ``send(_:deadline:)`` and rejects a body over the limit once it has arrived.
  /// - Throws: `URLError(.dataLengthExceedsMaximum)`, or what ``send(_:deadline:)`` throws.
  public func send(_ request: URLRequest, deadline: Duration, maxResponseSize: Int) async throws
    -> (Data, HTTPURLResponse)
  {
    let (data, response) = try await send(request, deadline: deadline)
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
