import Foundation

/// A response body saved to a file as it arrives, rather than held in memory:
/// ```swift
/// let request = Request<Data>(path: "files/report.pdf")
/// let saved = try await network.download(Download(request, to: file)) { progress in
///   show(progress.fraction)  // of the bytes on disk, a resumed part included
/// }.value  // once whole
/// ```
/// It goes through the same path as any request — deadline, retries, token renewal,
/// middleware, records — with the request's `maxResponseSize` enforced while the body
/// streams in. It arrives in `<destination>.part` and is renamed into place only when whole;
/// a download cut short (a lost connection, a killed process) resumes from what is on disk
/// with `Range` and `If-Range`, and starts over when the file changed or the server sends it
/// whole (`200`). A retry resumes; it never starts over what it can continue.
public struct Download: Sendable {
  public var request: Request<Data>
  /// Where the file goes (replaced when it exists).
  public var destination: URL
  /// Whether a part left by an earlier attempt is continued (false: started over).
  public var resumes: Bool

  /// The download's progress (``Networking/download(_:progress:)``) counts the bytes on
  /// disk, a resumed part included.
  public init(_ request: Request<Data>, to destination: URL, resumes: Bool = true) {
    (self.request, self.destination, self.resumes) = (request, destination, resumes)
  }
}

extension Networking {
  /// For a fake ``Networking`` of your own: the answer's bytes from ``send(_:progress:)``,
  /// written to the destination whole (replaced atomically, with the mode the user's umask
  /// gives a new file). ``NetworkService`` streams them instead.
  /// - Parameter download: The request and where its body goes.
  /// - Parameter progress: Told the answer's bytes as ``send(_:progress:)`` tells them.
  /// - Throws: As ``send(_:progress:)``; ``FileError`` for a destination that is a directory
  ///   or a link, or that cannot be written.
  public func download(
    _ download: Download, progress: (@Sendable (TransferProgress) -> Void)?
  ) async throws -> NetworkResponse<URL> {
    try DownloadFile.checkDestination(download.destination)
    let answer = try await send(download.request, progress: progress)
    let path = download.destination.path
    if let failure = PrivateFile.replace(path, with: answer.value, mode: PrivateFile.userFileMode) {
      throw FileError.io(path: path, operation: failure.operation, errno: failure.errno)
    }
    return NetworkResponse(download.destination, source: answer.source, status: answer.status)
  }
}
