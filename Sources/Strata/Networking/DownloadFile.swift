import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A download's file while it arrives: `<destination>.part`, and beside it
/// `<destination>.part.resume` naming the URL and the validator the part belongs to. The part
/// is renamed into place only when whole, so the destination is never half a file. What is on
/// disk survives a cut connection and a killed process: the next attempt (a retry, or a later
/// run) asks for the rest with `Range` and `If-Range`, and a `200` — a changed file, or a
/// server that ignores ranges — starts it over.
final class DownloadFile: ResponseBodySink, @unchecked Sendable {
  /// Thrown when a `206` does not continue the part (another offset, another validator): the
  /// part is dropped (``cannotContinue``) and the download asks again from the start.
  struct Restart: Error {}

  /// What the `.resume` file says.
  private struct Resume: Codable {
    let url: String
    let validator: String
  }

  let destination: URL
  private let part: String
  private let resumeFile: String
  private let limit: Int
  private let progress: AsyncStream<TransferProgress>.Continuation?
  // Every stored `var` below is read and written only while holding `lock`; the transport
  // calls `begin`/`write` on one thread at a time, the service `prepare`/`finish` between
  // attempts.
  private let lock = NSLock()
  private var fd: Int32 = -1
  /// Bytes in the part; where the answer being written starts, for a `206`.
  private var offset: Int64 = 0
  private var expected: Int64?
  /// The URL the attempt asked (a redirect's target is not what the next run asks), and the
  /// validator of the part it continues, if it does.
  private var requested = ""
  private var asked: (url: String, validator: String)?
  private var refused = false

  /// Whether the last attempt's `206` could not continue the part (now dropped).
  var cannotContinue: Bool { lock.withLock { refused } }

  init(
    _ destination: URL, resume: Bool, limit: Int,
    progress: AsyncStream<TransferProgress>.Continuation?
  ) {
    self.destination = destination
    part = destination.path + ".part"
    resumeFile = part + ".resume"
    self.limit = limit
    self.progress = progress
    if !resume { discard() }
  }

  deinit { if fd >= 0 { close(fd) } }

  /// Sets or clears `Range`/`If-Range` on the next attempt: the rest of the part, when the
  /// part has bytes and a validator for this very URL.
  func prepare(_ request: inout URLRequest) {
    let url = request.url?.absoluteString ?? ""
    let size = Int64(FileDescriptor.size(of: part))
    let kept = (try? Data(contentsOf: URL(fileURLWithPath: resumeFile))).flatMap {
      try? JSONDecoder().decode(Resume.self, from: $0)
    }
    let resumes = size > 0 && kept?.url == url
    lock.withLock {
      (offset, asked) = resumes ? (size, (url, kept?.validator ?? "")) : (0, nil)
      requested = url
      refused = false
    }
    request.setValue(resumes ? "bytes=\(size)-" : nil, forHTTPHeaderField: "Range")
    request.setValue(resumes ? kept?.validator : nil, forHTTPHeaderField: "If-Range")
  }

  /// Takes a `200` (the whole file, from the start) or a `206` that continues the part.
  func begin(_ response: HTTPURLResponse) throws -> Bool {
    let status = response.statusCode
    guard status == 200 || status == 206 else { return false }
    let validator = Self.validator(of: response)
    return try lock.withLock {
      if status == 206 {
        guard let asked, let range = Self.contentRange(response), range.start == offset,
          validator == nil || validator == asked.validator
        else {
          closePart()
          unlink(part)
          refused = true
          throw Restart()
        }
        expected = range.total
        try openPart(truncating: false)
      } else {
        offset = 0
        // A coded answer (gzip) arrives decoded: its length is the coded one, and a range of
        // it would count coded bytes, so neither a total nor a resume can be had.
        let coded =
          response.value(forHTTPHeaderField: "Content-Encoding").map {
            $0.lowercased() != "identity"
          } ?? false
        let length = response.expectedContentLength
        expected = length >= 0 && !coded ? length : nil
        try openPart(truncating: true)
        unlink(resumeFile)
        if let validator, !coded {
          let record = try JSONEncoder().encode(Resume(url: requested, validator: validator))
          try record.write(to: URL(fileURLWithPath: resumeFile), options: .atomic)
        }
      }
      progress?.yield(TransferProgress(done: offset, expected: expected))
      return true
    }
  }

  func write(_ bytes: Data) throws {
    try lock.withLock {
      guard offset + Int64(bytes.count) <= Int64(limit) else {
        throw URLError(.dataLengthExceedsMaximum)
      }
      guard bytes.withUnsafeBytes({ FileDescriptor.writeAll(fd, $0) }) else {
        throw Self.writeError(errno)
      }
      offset += Int64(bytes.count)
      progress?.yield(TransferProgress(done: offset, expected: expected))
    }
  }

  /// The whole file, moved into place: checked against the length the server gave, renamed
  /// over `destination`. Not `fsync`ed: a killed process leaves the page cache to the kernel,
  /// so the rename alone keeps a half file from ever bearing the name; syncing 200 MB cost 40%
  /// of a download's throughput, for a power loss that a new download repairs.
  /// - Throws: `URLError(.networkConnectionLost)` when fewer bytes came than announced (the
  ///   part is kept: the next attempt resumes).
  func finish() throws -> URL {
    try lock.withLock {
      if fd < 0 { try openPart(truncating: true) }  // an empty body: nothing was written
      closePart()
      if let expected, expected != offset { throw URLError(.networkConnectionLost) }
      guard rename(part, destination.path) == 0 else { throw Self.writeError(errno) }
      unlink(resumeFile)
    }
    progress?.finish()
    return destination
  }

  /// Forgets the part (a `416`: what is on disk is no prefix of the file).
  func discard() {
    lock.withLock {
      closePart()
      unlink(part)
      unlink(resumeFile)
    }
  }

  /// Ends the progress stream of a download that failed for good (the part stays).
  func abandon() {
    lock.withLock { closePart() }
    progress?.finish()
  }

  // MARK: Helpers (called holding `lock`)

  private func openPart(truncating: Bool) throws {
    closePart()
    let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (truncating ? O_TRUNC : O_APPEND)
    fd = open(part, flags, 0o600)
    guard fd >= 0 else { throw Self.writeError(errno) }
  }

  private func closePart() {
    if fd >= 0 { close(fd) }
    fd = -1
  }

  private static func writeError(_ code: Int32) -> URLError {
    URLError(
      .cannotWriteToFile,
      userInfo: [
        NSLocalizedDescriptionKey: "cannot write the file: \(String(cString: strerror(code)))"
      ])
  }

  /// The validator an `If-Range` may name: a strong `ETag`, else `Last-Modified` (a weak tag
  /// never matches one, RFC 9110 §13.1.5).
  static func validator(of response: HTTPURLResponse) -> String? {
    if let tag = response.value(forHTTPHeaderField: "ETag"), !tag.hasPrefix("W/") { return tag }
    return response.value(forHTTPHeaderField: "Last-Modified")
  }

  /// `Content-Range: bytes <first>-<last>/<total>` (total `*`: unknown).
  static func contentRange(_ response: HTTPURLResponse) -> (start: Int64, total: Int64?)? {
    guard let header = response.value(forHTTPHeaderField: "Content-Range"),
      header.lowercased().hasPrefix("bytes ")
    else { return nil }
    let spec = header.dropFirst(6)
    let pieces = spec.split(separator: "/", maxSplits: 1)
    guard pieces.count == 2, let dash = pieces[0].firstIndex(of: "-"),
      let start = Int64(pieces[0][..<dash]), start >= 0
    else { return nil }
    return (start, Int64(pieces[1]))
  }
}
