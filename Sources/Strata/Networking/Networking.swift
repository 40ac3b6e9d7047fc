/// What repositories depend on: send an endpoint, get its decoded response. `NetworkService` is
/// the real implementation; tests substitute their own.
public protocol Networking: Sendable {
  /// Sends `endpoint` and decodes its response.
  /// - Throws: ``NetworkError``, or `CancellationError` when the task is cancelled.
  func send<E: Endpoint>(_ endpoint: E) async throws -> E.Response
}
