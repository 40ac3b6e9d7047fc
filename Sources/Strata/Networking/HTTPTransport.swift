import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one seam between Strata and the network: send a request, get bytes and a response.
/// `URLSessionTransport` is the real one; tests use `MockTransport` from `StrataTesting`.
public protocol HTTPTransport: Sendable {
  /// Performs one HTTP exchange.
  /// - Parameter request: The fully built request.
  /// - Returns: The body and the HTTP response.
  /// - Throws: `URLError` for transport failures, `CancellationError` when cancelled.
  func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}
