import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Downloads: the send path with the body written to a file (``DownloadFile``) instead of
/// memory, and without the HTTP cache (a file is kept where the caller puts it).
extension NetworkService {
  /// Sends `download.request` and writes its body to `download.destination` as it arrives.
  /// Each attempt continues what is on disk; a `416` (the part is no prefix of the file)
  /// drops it and asks again from the start, as does a `206` that does not continue it.
  /// The destination is checked before anything is sent.
  /// - Throws: ``NetworkError``; the part stays on disk for a later resume. ``FileError``
  ///   when the destination names a directory or a link, a link or another user's file is
  ///   at its part or record, another download to it is under way
  ///   (``FileError/busy(path:)``), or the file cannot be written.
  /// - Parameter download: The request and where its body goes.
  /// - Parameter progress: Told the bytes on disk, of how many, a resumed part included;
  ///   never after the call returns.
  public func download(
    _ download: Download, progress: (@Sendable (TransferProgress) -> Void)?
  ) async throws -> NetworkResponse<URL> {
    let request = download.request
    let label = Self.label(request.method, request.path)
    let (gate, report) = ProgressGate.around(progress)
    defer { gate?.close() }  // however it ends, even before the file is opened
    let file = try await DownloadFile.open(
      download.destination, resume: download.resumes,
      limit: request.maxResponseSize ?? options.maxResponseSize, progress: report)
    defer { file.close() }
    do {
      var call = try await authorise(request, label: label)
      call.sink = file
      return try await fetch(into: file, &call)
    } catch let error as NetworkError {
      logger.error("\(label) failed: \(error)")
      throw error.labelled(label)
    } catch let error as FileError {
      logger.error("\(label) failed: \(error)")
      throw error
    }
  }

  /// How many times a part that cannot be continued is dropped and the file asked for whole,
  /// so a server that keeps answering so cannot hold the call in a loop.
  private static let maxRestarts = 2

  private func fetch(into file: DownloadFile, _ call: inout Call) async throws
    -> NetworkResponse<URL>
  {
    var restarts = 0
    while true {
      file.prepare(&call.request)
      let resumed = call.request.value(forHTTPHeaderField: "Range") != nil
      let (started, why) = (ContinuousClock.now, call.retriedBecause)
      let outcome = try await attempt(&call)
      if let problem = file.failure { throw problem }
      if file.cannotContinue || (resumed && Self.isRangeRefusal(outcome)) {
        // The part cannot be continued: dropped, and asked for whole.
        guard resumed, restarts < Self.maxRestarts else { throw Self.unusablePartial }
        logger.info("\(call.label): the part on disk cannot be continued; starting over")
        file.discard()
        restarts += 1
        continue
      }
      let next = try await decide(outcome, &call)
      record(
        outcome, next, of: call, retriedBecause: why, duration: ContinuousClock.now - started,
        received: file.bytesReceived)
      switch next {
      case .done(_, let response):
        do {
          return NetworkResponse(try file.finish(), status: response.statusCode)
        } catch let error as URLError {
          // Fewer bytes than announced: the next attempt resumes, as after a cut.
          guard case .retry(_, let delay) = retry(after: .transport(error), retryAfter: nil, &call)
          else {
            throw NetworkError.transport(error)
          }
          try await clock.sleep(for: delay)
        }
      case .fail(let error): throw error
      case .retry(_, let delay): try await clock.sleep(for: delay)
      case .replay: continue
      }
    }
  }

  /// A `206` that continues nothing asked for (to a request without `Range`, or again after
  /// every restart).
  private static let unusablePartial = NetworkError.transport(
    URLError(
      .badServerResponse,
      userInfo: [
        NSLocalizedDescriptionKey:
          "the server's partial answer (206) does not continue the file; nothing was saved"
      ]))

  /// A `416`: the part is no prefix of the file.
  private static func isRangeRefusal(_ outcome: Result<(Data, HTTPURLResponse), NetworkError>)
    -> Bool
  {
    if case .success(let (_, response)) = outcome { return response.statusCode == 416 }
    return false
  }
}
