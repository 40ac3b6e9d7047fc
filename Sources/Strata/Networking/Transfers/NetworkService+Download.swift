import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Downloads: the send path with the body written to a file (``DownloadFile``) instead of
/// memory, and without the HTTP cache (a file is kept where the caller puts it).
extension NetworkService {
  /// Sends `download.request` and writes its body to `download.destination` as it arrives.
  /// Each attempt continues what is on disk; a `416` (the part is no prefix of the file)
  /// drops it and asks again from the start, as does a `206` that does not continue it — at
  /// most twice, so a server that keeps answering so cannot hold the call in a loop.
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
      var delivery = FileDelivery(file: file)
      return try await run(&call, &delivery)
    } catch let error as NetworkError {
      logger.error("\(label) failed: \(error)")
      throw error.labelled(label)
    } catch let error as FileError {
      logger.error("\(label) failed: \(error)")
      throw error
    }
  }
}

/// A call whose answer is written to a file as it arrives (``DownloadFile``), never into
/// memory and never through the HTTP cache; each attempt continues what is on disk.
struct FileDelivery: CallDelivery {
  let file: DownloadFile

  func prepare(_ call: inout NetworkService.Call, after restart: Restart?) {
    if restart != nil { file.discard() }
    file.prepare(&call.request)
  }

  func inspect(
    _ outcome: AttemptOutcome, _ call: inout NetworkService.Call, _ timing: AttemptTiming
  ) throws -> Inspection<NetworkResponse<URL>> {
    if let problem = file.failure { throw problem }
    let resumed = call.request.value(forHTTPHeaderField: "Range") != nil
    if let restart = file.restart {
      // A `206` to a request that asked for no part continues nothing.
      guard resumed else { throw restart.failure }
      return .restart(restart)
    }
    if resumed, case .success(let (_, response)) = outcome, response.statusCode == 416 {
      return .restart(.rangeRefused)
    }
    return .judge
  }

  func standIn(for next: NetworkService.Next, call: NetworkService.Call)
    -> NetworkResponse<URL>?
  { nil }

  var recordSource: ResponseSource? { nil }

  /// The body went to the file, not into the attempt's data.
  var bytesReceived: Int? { file.bytesReceived }

  func deliver(_ data: Data, _ response: HTTPURLResponse, call: NetworkService.Call) throws
    -> NetworkResponse<URL>
  {
    NetworkResponse(try file.finish(), status: response.statusCode)
  }
}
