import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What an exchange streams instead of holding in memory: a request body read from a file,
/// how much of it has gone, and a response body written where it belongs (a download's file).
public struct StreamedTransfer: Sendable {
  /// The file the request body is read from as it is sent (nil: the request's own body).
  public var bodyFile: URL?
  /// Bytes of the request body sent, and of how many.
  public var sendProgress: AsyncStream<TransferProgress>.Continuation?
  /// Bytes of a response body received into memory, and of how many (a sink tells its own).
  public var receiveProgress: AsyncStream<TransferProgress>.Continuation?
  /// Where the response body goes as it arrives (nil: memory).
  public var sink: (any ResponseBodySink)?

  public init(
    bodyFile: URL? = nil, sendProgress: AsyncStream<TransferProgress>.Continuation? = nil,
    receiveProgress: AsyncStream<TransferProgress>.Continuation? = nil,
    sink: (any ResponseBodySink)? = nil
  ) {
    (self.bodyFile, self.sendProgress, self.sink) = (bodyFile, sendProgress, sink)
    self.receiveProgress = receiveProgress
  }
}

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
  /// For a transport that cannot stream: the body file given to the request as a stream,
  /// the whole answer received, then handed to the sink. ``URLSessionTransport`` streams
  /// both ways, so memory stays flat whatever the size.
  public func send(_ request: URLRequest, limits: TransferLimits, streaming: StreamedTransfer)
    async throws -> (Data, HTTPURLResponse)
  {
    var request = request
    if let file = streaming.bodyFile { request.httpBodyStream = InputStream(url: file) }
    let (data, response) = try await send(request, limits: limits)
    if let length = request.value(forHTTPHeaderField: "Content-Length").flatMap(Int64.init) {
      streaming.sendProgress?.yield(TransferProgress(done: length, expected: length))
    }
    guard let sink = streaming.sink, try sink.begin(response) else {
      let size = Int64(data.count)
      streaming.receiveProgress?.yield(TransferProgress(done: size, expected: size))
      return (data, response)
    }
    try sink.write(data)
    return (Data(), response)
  }
}
