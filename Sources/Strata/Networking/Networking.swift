/// What repositories depend on: send an endpoint, get its decoded response. `NetworkService` is
/// the real implementation; tests substitute their own.
public protocol Networking: Sendable {
  /// Sends `endpoint` and decodes its response.
  /// - Throws: ``NetworkError``, or `CancellationError` when the task is cancelled.
  func send<E: Endpoint>(_ endpoint: E) async throws -> E.Response

  /// Sends `endpoint` and says where the answer came from (the network, the HTTP cache, a
  /// revalidation, or a stale answer standing in for a failure). The default sends and says
  /// ``ResponseSource/network``: substitutes without a cache need not implement it.
  func fetch<E: Endpoint>(_ endpoint: E) async throws -> Fetched<E.Response>
}

extension Networking {
  public func fetch<E: Endpoint>(_ endpoint: E) async throws -> Fetched<E.Response> {
    Fetched(value: try await send(endpoint), source: .network)
  }
}

/// An answer and where it came from.
public struct Fetched<Value: Sendable>: Sendable {
  /// The decoded response.
  public let value: Value
  /// The network, the cache (with the answer's age), a 304, or a stale stand-in.
  public let source: ResponseSource

  /// For a fake ``Networking`` of your own: a repository test can say an answer came from
  /// the cache, or stood in for a failure.
  public init(value: Value, source: ResponseSource) { (self.value, self.source) = (value, source) }
}
