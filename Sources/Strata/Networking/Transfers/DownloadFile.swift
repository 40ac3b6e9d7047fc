import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A download's file while it arrives: `<destination>.part`, and beside it
/// `<destination>.part.resume`, the record of what the part continues (a keyed digest of the
/// URL — never the URL, whose userinfo and query may hold secrets —, the validator, and the
/// length the first answer announced). Both are the library's files (``PrivateFile``: 0600,
/// never through a link, only the user's own); the part is renamed into place only when whole,
/// with the mode the user's umask gives a new file (it is the user's file, as curl's is), so
/// the destination is never half a file. What is on disk survives a cut connection and a
/// killed process: the next attempt (a retry, or a later run) asks for the rest with `Range`
/// and `If-Range`, and a `200` — a changed file, or a server that ignores ranges — starts it
/// over. One download per destination at a time: `<destination>.part.lock` is held from
/// ``open(_:resume:limit:progress:)`` to ``close()`` and removed then.
final class DownloadFile: ResponseBodySink, @unchecked Sendable {
  /// What the `.resume` file says.
  private struct Resume: Codable {
    /// `hmac-sha256:<hex>` of the URL under `salt`.
    let url: String
    let salt: String
    let validator: String
    /// The whole file's length, as the answer that started the part announced it.
    let total: Int64?
  }

  /// The longest resume record read, in bytes (a validator is at most 8 KiB when kept).
  private static let largestRecord = 16 << 10

  let destination: URL
  private let part: String
  private let resumeFile: String
  private let limit: Int
  private let progress: ProgressReport?
  private let hold: FileLock
  // Every stored `var` below is read and written only while holding `lock`; the transport
  // calls `begin`/`write` on one thread at a time, the service `prepare`/`finish` between
  // attempts.
  private let lock = NSLock()
  private var fd: Int32 = -1
  /// Bytes in the part; where the answer being written starts, for a `206`.
  private var offset: Int64 = 0
  /// Bytes written by the current attempt (its record's `bytesReceived`).
  private var received = 0
  private var expected: Int64?
  /// The URL the attempt asked (a redirect's target is not what the next run asks), and what
  /// the part it continues was recorded with, if it does.
  private var requested = ""
  private var asked: Resume?
  /// Set when the last attempt's answer could not continue the part (now dropped).
  private var refused: Restart?
  /// Why the part or its record could not be used (a link planted there, a full disk): what
  /// the download throws, rather than the transport's reading of the sink's error.
  private var problem: FileError?

  /// Why the last attempt's answer could not continue the part (now dropped), if it could
  /// not.
  var restart: Restart? { lock.withLock { refused } }
  /// The file problem that ended the last attempt, if one did.
  var failure: FileError? { lock.withLock { problem } }
  /// Bytes the last attempt wrote.
  var bytesReceived: Int { lock.withLock { received } }

  private init(
    _ destination: URL, hold: FileLock, limit: Int,
    progress: ProgressReport?
  ) {
    self.destination = destination
    part = destination.path + ".part"
    resumeFile = part + ".resume"
    (self.hold, self.limit, self.progress) = (hold, limit, progress)
  }

  /// Checks the destination and what an earlier attempt left beside it, and takes the
  /// destination's lock; `resume: false` drops the part.
  /// - Throws: ``FileError``: a directory or a link at the destination (or a path naming a
  ///   directory), a link or another user's file at the part or its record,
  ///   ``FileError/busy(path:)`` while another download to it runs.
  static func open(
    _ destination: URL, resume: Bool, limit: Int,
    progress: ProgressReport?
  ) async throws -> DownloadFile {
    let path = destination.path
    try checkDestination(destination)
    for file in [path + ".part", path + ".part.resume"] {
      if let problem = Self.unusable(file, ownedByLibrary: true) { throw problem }
    }
    let hold: FileLock
    do {
      hold = try await FileLock.acquire(path + ".part.lock", exclusive: true, timeout: nil)
    } catch FileLock.Failure.busy {
      throw FileError.busy(path: path)
    } catch FileLock.Failure.io(let operation, let code) {
      throw FileError.io(path: path + ".part.lock", operation: operation, errno: code)
    }
    let file = DownloadFile(destination, hold: hold, limit: limit, progress: progress)
    if !resume { file.discard() }
    return file
  }

  /// Refuses a destination that names a directory (`""`, `.`, `dir/`, or one that is there)
  /// or a link: a download replaces a regular file or makes one, nothing else.
  static func checkDestination(_ destination: URL) throws(FileError) {
    let path = destination.path
    let named = destination.lastPathComponent
    if destination.hasDirectoryPath || path.isEmpty || named == "." || named == ".." {
      throw .notRegularFile(path: path.isEmpty ? "\"\"" : path, found: "a directory")
    }
    if let problem = unusable(path, ownedByLibrary: false) { throw problem }
  }

  /// Why `path` may not be used: something other than a regular file there (the destination
  /// may be replaced, never a link or a directory), or, for the library's own files, another
  /// user's file.
  private static func unusable(_ path: String, ownedByLibrary: Bool) -> FileError? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    guard info.st_mode & S_IFMT == S_IFREG else {
      return .notRegularFile(path: path, found: FileError.kind(of: info.st_mode))
    }
    guard !ownedByLibrary || info.st_uid == geteuid() else {
      return .foreignOwner(path: path, owner: info.st_uid)
    }
    return nil
  }

  deinit { if fd >= 0 { closeDescriptor(fd) } }

  /// Sets or clears `Range`/`If-Range` on the next attempt: the rest of the part, when the
  /// part has bytes and a record made for this very URL.
  func prepare(_ request: inout URLRequest) {
    let url = request.url?.absoluteString ?? ""
    let size = Int64(PrivateFile.size(of: part))
    let kept = (try? PrivateFile.read(resumeFile, limit: Self.largestRecord)).flatMap {
      try? JSONDecoder().decode(Resume.self, from: Data($0))
    }
    let matching = kept.flatMap { Self.digest(url, salt: $0.salt) == $0.url ? $0 : nil }
    let resumes = size > 0 && matching != nil
    lock.withLock {
      (offset, asked) = resumes ? (size, matching) : (0, nil)
      (requested, refused, received, problem) = (url, nil, 0, nil)
    }
    request.setValue(resumes ? "bytes=\(size)-" : nil, forHTTPHeaderField: "Range")
    request.setValue(resumes ? matching?.validator : nil, forHTTPHeaderField: "If-Range")
  }

  /// Takes a `200` (the whole file, from the start) or a `206` that continues the part.
  func begin(_ response: HTTPURLResponse) throws -> Bool {
    let status = response.statusCode
    guard status == 200 || status == 206 else { return false }
    let validator = Self.validator(of: response)
    return try lock.withLock {
      if status == 206 {
        guard let asked, let range = Self.contentRange(response), range.start == offset,
          validator == nil || validator == asked.validator,
          range.total == nil || asked.total == nil || range.total == asked.total
        else {
          closePart()
          unlink(part)
          refused = .partialDoesNotContinue
          throw Restart.partialDoesNotContinue
        }
        // A `…/*` range says nothing of the whole: the first answer's length still holds.
        expected = range.total ?? asked.total
        try refuseOverLimit()
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
        try refuseOverLimit()
        try openPart(truncating: true)
        if let validator, !coded {
          try keepRecord(validator: validator)
        } else {
          unlink(resumeFile)
        }
      }
      progress?(TransferProgress(.receiving, completed: offset, total: expected))
      return true
    }
  }

  /// A file announced over the limit is refused before anything of it is written (the
  /// service reads a body its sink takes into the sink, which keeps its own limit).
  private func refuseOverLimit() throws {
    if let expected, expected > Int64(limit) { throw URLError(.dataLengthExceedsMaximum) }
  }

  func write(_ bytes: Data) throws {
    try lock.withLock {
      guard offset + Int64(bytes.count) <= Int64(limit) else {
        throw URLError(.dataLengthExceedsMaximum)
      }
      guard bytes.withUnsafeBytes({ FileDescriptor.writeAll(fd, $0) }) else {
        throw failed(.io(path: part, operation: "write", errno: errno))
      }
      offset += Int64(bytes.count)
      received += bytes.count
      progress?(TransferProgress(.receiving, completed: offset, total: expected))
    }
  }

  /// The whole file, moved into place: checked against the length the server gave, given the
  /// mode a new file of the user's gets, renamed over `destination`. Not `fsync`ed: a killed
  /// process leaves the page cache to the kernel, so the rename alone keeps a half file from
  /// ever bearing the name; syncing 200 MB cost 40% of a download's throughput, for a power
  /// loss that a new download repairs.
  /// - Throws: `URLError(.networkConnectionLost)` when fewer bytes came than announced (the
  ///   part is kept: the next attempt resumes); ``FileError`` when it cannot be moved.
  func finish() throws -> URL {
    try lock.withLock {
      if fd < 0 { try openPart(truncating: true) }  // an empty body: nothing was written
      if let expected, expected != offset {
        closePart()
        throw URLError(.networkConnectionLost)
      }
      _ = fchmod(fd, PrivateFile.userFileMode)
      closePart()
      guard rename(part, destination.path) == 0 else {
        throw failed(.io(path: destination.path, operation: "rename", errno: errno))
      }
      unlink(resumeFile)
    }
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

  /// Ends the download however it went: the part closed (it
  /// stays for a later resume), the destination's lock let go and its file removed.
  func close() {
    lock.withLock { closePart() }
    hold.release(removing: part + ".lock")
  }

  // MARK: Helpers (called holding `lock`)

  /// Keeps `error` as the attempt's failure and returns it, to throw.
  private func failed(_ error: FileError) -> FileError {
    problem = error
    return error
  }

  private func openPart(truncating: Bool) throws {
    closePart()
    do {
      let flags = O_WRONLY | (truncating ? O_TRUNC : O_APPEND)
      guard let opened = try PrivateFile.open(part, flags, creating: .ifMissing) else {
        throw FileError.io(path: part, operation: "open", errno: ENOENT)
      }
      fd = opened
    } catch let error as FileError {
      throw failed(error)
    }
    // Appending: the part must still be what `prepare` measured (another writer, a swap).
    var info = stat()
    if !truncating, fstat(fd, &info) != 0 || Int64(info.st_size) != offset {
      closePart()
      refused = .partialDoesNotContinue
      throw Restart.partialDoesNotContinue
    }
  }

  private func keepRecord(validator: String) throws {
    let salt = KeyedDigest.hex(HTTPCacheFiles.randomKey().prefix(16))
    let record = Resume(
      url: Self.digest(requested, salt: salt), salt: salt, validator: validator, total: expected)
    let bytes = try JSONEncoder().encode(record)
    // Not synced, as the part is not: lost at a power cut, the download starts over.
    if let failure = PrivateFile.replace(resumeFile, with: bytes, syncs: false) {
      throw failed(.io(path: resumeFile, operation: failure.operation, errno: failure.errno))
    }
  }

  private func closePart() {
    if fd >= 0 { closeDescriptor(fd) }
    fd = -1
  }

  /// `url`'s keyed digest under `salt`: tells whether a record was made for a URL without
  /// keeping the URL.
  private static func digest(_ url: String, salt: String) -> String {
    KeyedDigest.of(url, key: Array(salt.utf8))
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

// At file scope this name is the C function, not the member above.
private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
