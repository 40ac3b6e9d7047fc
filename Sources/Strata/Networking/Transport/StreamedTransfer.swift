import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What an exchange streams instead of holding in memory: a request body read from a file,
/// the bytes told as they go and come, and a response body written where it belongs (a
/// download's file). The library's own business: an ``HTTPTransport`` of an app's sees one
/// request and answers it whole; ``URLSessionTransport`` streams.
struct StreamedTransfer: Sendable {
  /// The file the request body is read from as it is sent (nil: the request's own body).
  var bodyFile: URL?
  /// Told the bytes of the request body sent, then of a response body received into memory
  /// (a sink tells its own).
  var progress: ProgressReport?
  /// Where the response body goes as it arrives (nil: memory).
  var sink: (any ResponseBodySink)?

  /// Whether there is anything to stream: else the exchange is the transport's plain send.
  var isEmpty: Bool { bodyFile == nil && progress == nil && sink == nil }

  /// One exchange over `transport`: streamed by a transport that can
  /// (``StreamingTransport``); else the body file given to the request as a stream, the
  /// whole answer received, then handed to the sink.
  func send(_ request: URLRequest, limits: TransferLimits, over transport: any HTTPTransport)
    async throws -> (Data, HTTPURLResponse)
  {
    if isEmpty { return try await transport.send(request, limits: limits) }
    if let streaming = transport as? any StreamingTransport {
      return try await streaming.send(request, limits: limits, streaming: self)
    }
    var request = request
    if let bodyFile { request.httpBodyStream = InputStream(url: bodyFile) }
    let (data, response) = try await transport.send(request, limits: limits)
    if let length = request.value(forHTTPHeaderField: "Content-Length").flatMap(Int64.init) {
      progress?(TransferProgress(.sending, completed: length, total: length))
    }
    guard let sink, try sink.begin(response) else {
      let size = Int64(data.count)
      progress?(TransferProgress(.receiving, completed: size, total: size))
      return (data, response)
    }
    try sink.write(data)
    return (Data(), response)
  }
}

/// A transport that streams (``URLSessionTransport``): the request body from a file, its
/// progress, the response body into a sink when the sink takes it (the `Data` returned is
/// then empty).
protocol StreamingTransport: HTTPTransport {
  func send(_ request: URLRequest, limits: TransferLimits, streaming: StreamedTransfer)
    async throws -> (Data, HTTPURLResponse)
}

/// Where a response body goes as it arrives, instead of memory: a download's file. The
/// transport calls ``begin(_:)`` with the head, then ``write(_:)`` for each piece, on one
/// thread at a time and in order; an error thrown by either ends the exchange with it.
protocol ResponseBodySink: Sendable {
  /// Whether this answer's body is taken (a `200` or `206` to a download); false leaves it to
  /// the exchange, in memory (an error's body, which the service reads).
  func begin(_ response: HTTPURLResponse) throws -> Bool
  /// The next piece of a taken body.
  func write(_ bytes: Data) throws
}
