import Foundation

/// What repositories depend on: send an endpoint, get its answer. `NetworkService` is the real
/// implementation; tests substitute their own.
public protocol Networking: Sendable {
  /// Sends `endpoint`: the answer's ``NetworkResponse/value`` is the decoded response, and it
  /// says where it came from (the network, the HTTP cache, a revalidation, or a stale answer
  /// standing in for a failure) and with which status.
  /// ```swift
  /// let user = try await network.send(Request<User>(path: "users/1")).value
  /// ```
  /// - Parameter endpoint: What to send, and the type its answer decodes to.
  /// - Parameter progress: Told the bytes of the body as they go, then of the answer's as
  ///   they arrive (nothing, from the cache); never after the call returns.
  /// - Throws: ``NetworkError``, or `CancellationError` when the task is cancelled.
  func send<E: Endpoint>(_ endpoint: E, progress: (@Sendable (TransferProgress) -> Void)?)
    async throws -> NetworkResponse<E.Response>

  /// Saves an answer's body to a file as it arrives (``Download``): the value is the file's
  /// URL, once whole.
  /// - Parameter download: The request and where its body goes.
  /// - Parameter progress: Told the bytes on disk, a resumed part included; never after the
  ///   call returns.
  /// - Throws: ``NetworkError``; the part on disk stays for a later resume.
  func download(_ download: Download, progress: (@Sendable (TransferProgress) -> Void)?)
    async throws -> NetworkResponse<URL>

  /// The answer to `endpoint` as it arrives, read as `format` says: pieces, lines, one
  /// decoded value per line of JSON, or server-sent events. Nothing is sent until the first
  /// element is asked for.
  /// - Parameter endpoint: What to ask for.
  /// - Parameter format: How the answer is read (``StreamFormat``).
  /// - Parameter state: Told when the stream connects, opens and closes.
  func stream<E: Endpoint, Element>(
    _ endpoint: E, as format: StreamFormat<Element>,
    state: (@Sendable (StreamState) -> Void)?
  ) -> ResponseStream<Element>
}

extension Networking {
  /// ``send(_:progress:)`` without progress.
  public func send<E: Endpoint>(_ endpoint: E) async throws -> NetworkResponse<E.Response> {
    try await send(endpoint, progress: nil)
  }

  /// ``stream(_:as:state:)`` without telling its state.
  public func stream<E: Endpoint, Element>(
    _ endpoint: E, as format: StreamFormat<Element>
  ) -> ResponseStream<Element> {
    stream(endpoint, as: format, state: nil)
  }

  /// ``download(_:progress:)`` without progress.
  public func download(_ download: Download) async throws -> NetworkResponse<URL> {
    try await self.download(download, progress: nil)
  }
}

/// A decoded answer, where it came from and its HTTP status.
public struct NetworkResponse<Value: Sendable>: Sendable {
  /// The decoded response.
  public let value: Value
  /// The network, the cache (with the answer's age), a 304, or a stale stand-in.
  public let source: ResponseSource
  /// The HTTP status of the answer the value was decoded from: the kept answer's own status
  /// when it came from the cache (a `304` refreshes the kept answer and is not the status).
  public let status: Int
  /// The answer's entity tag (`ETag`), when it had one: the version of what was read. A write
  /// sent with `If-Match` on it is refused (412) if the server's value changed meanwhile.
  public let etag: String?

  /// For a fake ``Networking`` of your own: a repository test can say an answer came from
  /// the cache, or stood in for a failure.
  public init(
    _ value: Value, source: ResponseSource = .network, status: Int = 200, etag: String? = nil
  ) {
    (self.value, self.source, self.status, self.etag) = (value, source, status, etag)
  }
}
