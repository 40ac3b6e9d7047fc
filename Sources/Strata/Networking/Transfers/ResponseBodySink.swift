import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Where a response body goes as it is read, instead of memory: a download's file, an event
/// stream's parser. The service reads the body and calls ``begin(_:)`` with the head, then
/// ``write(_:)`` for each piece, in order, from one task; an error thrown by either ends the
/// exchange with it.
protocol ResponseBodySink: Sendable {
  /// Whether this answer's body is taken (a `200` or `206` to a download); false leaves it to
  /// the exchange, in memory (an error's body, which the service reads).
  func begin(_ response: HTTPURLResponse) throws -> Bool
  /// The next piece of a taken body.
  func write(_ bytes: Data) throws
}

extension HTTPBody {
  /// Reads the body: into `sink` when it takes it (nothing kept in memory), else whole up
  /// to `limit` bytes, `progress` told each piece.
  /// - Throws: `URLError(.dataLengthExceedsMaximum)` over the limit, what the sink throws, or
  ///   what reading throws.
  func read(
    _ response: HTTPURLResponse, into sink: (any ResponseBodySink)?, limit: Int,
    progress: ProgressReport?
  ) async throws -> Data {
    if let sink, try sink.begin(response) {
      try await drain(into: sink)
      return Data()
    }
    return try await collect(upTo: limit, progress: progress)
  }
}
