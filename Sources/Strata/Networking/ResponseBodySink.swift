import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Where a response body goes as it arrives, instead of memory: a download's file. The
/// transport calls ``begin(_:)`` with the head, then ``write(_:)`` for each piece, on one
/// thread at a time and in order; an error thrown by either ends the exchange with it.
public protocol ResponseBodySink: Sendable {
  /// Whether this answer's body is taken (a `200` or `206` to a download); false leaves it to
  /// the exchange, in memory (an error's body, which the service reads).
  func begin(_ response: HTTPURLResponse) throws -> Bool
  /// The next piece of a taken body.
  func write(_ bytes: Data) throws
}

extension HTTPTransport {
  /// One exchange whose body goes to `sink` as it arrives, when the sink takes it; the `Data`
  /// returned is a body it did not take. This default receives the whole body first, then
  /// hands it over: a transport that streams (``URLSessionTransport``) writes each piece as
  /// it comes, so memory stays flat whatever the size.
  public func send(_ request: URLRequest, limits: TransferLimits, into sink: any ResponseBodySink)
    async throws -> (Data, HTTPURLResponse)
  {
    let (data, response) = try await send(request, limits: limits)
    guard try sink.begin(response) else { return (data, response) }
    try sink.write(data)
    return (Data(), response)
  }
}
