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
  /// - Throws: ``NetworkError``; the part stays on disk for a later resume.
  public func download(_ download: Download) async throws -> NetworkResponse<URL> {
    let request = download.request
    let label = Self.label(request.method, request.path)
    defer {  // however it ends, even before the file is opened (a call refused unsent)
      request.sendProgress?.finish()
      request.receiveProgress?.finish()
    }
    var call = try await authorise(request, label: label)
    let file = DownloadFile(
      download.destination, resume: download.resumes, limit: call.maxResponseSize,
      progress: request.receiveProgress)
    call.sink = file
    do {
      return try await fetch(into: file, &call)
    } catch let error as NetworkError {
      file.abandon()
      logger.error("\(label) failed: \(error)")
      throw error.labelled(label)
    } catch {
      file.abandon()
      throw error
    }
  }

  private func fetch(into file: DownloadFile, _ call: inout Call) async throws
    -> NetworkResponse<URL>
  {
    var restarts = 0
    while true {
      file.prepare(&call.request)
      let resumed = call.request.value(forHTTPHeaderField: "Range") != nil
      let (started, why) = (ContinuousClock.now, call.retriedBecause)
      let outcome = try await attempt(&call)
      // The part cannot be continued: dropped, and asked for whole (twice at most, so a
      // server that keeps answering so cannot hold the call in a loop).
      if restarts < 2, resumed, file.cannotContinue || Self.isRangeRefusal(outcome) {
        logger.info("\(call.label): the part on disk cannot be continued; starting over")
        file.discard()
        restarts += 1
        continue
      }
      let next = try await decide(outcome, &call)
      record(
        outcome, next, of: call, retriedBecause: why, duration: ContinuousClock.now - started)
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

  /// A `416`: the part is no prefix of the file.
  private static func isRangeRefusal(_ outcome: Result<(Data, HTTPURLResponse), NetworkError>)
    -> Bool
  {
    if case .success(let (_, response)) = outcome { return response.statusCode == 416 }
    return false
  }
}
