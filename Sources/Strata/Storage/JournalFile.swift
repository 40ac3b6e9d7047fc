import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The store's journal, its write-ahead log: an append-only file of records, one per change,
/// each a line `<CRC-32 of the JSON, 8 hex digits> <JSON>\n` (JSON never holds a raw newline). Invariants
/// (every call is made under the store's lock):
/// - `offset` is the end of the last whole line read or written; every valid record before it
///   has been applied to the caller's state.
/// - Only a final line without its newline is torn (a crash mid-append): it never happened, a
///   reader stops there and a writer cuts it off before appending.
/// - A whole line whose checksum fails is damage (a flipped bit on disk or in a copy), not a
///   crash: the reader sets it aside and skips it, and the records after it still count.
///   Cutting there would throw away changes that were written and synced intact.
/// - ``append(_:)`` returns once the record is on disk (`fdatasync`).
final class JournalFile {
  let path: String
  private let fd: Int32
  private let files: any DurableFiles
  private(set) var offset = 0
  /// Bytes in the file after `offset` that are not a whole record (a torn write).
  private(set) var hasTornTail = false

  /// Opens (creates, mode 0600) the journal at `path`; `truncate` starts it empty. A journal it
  /// creates has its directory synced before anything is appended: a record `fdatasync`'d
  /// into a file whose name never reached the disk is lost with it at a power cut.
  init(path: String, truncate: Bool = false, files: any DurableFiles = SystemFiles()) throws {
    let flags = O_RDWR | O_APPEND | (truncate ? O_TRUNC : 0)
    var opened = try Self.openRegularFile(path, flags, files: files)
    if opened == nil {
      opened = try PrivateFile.open(path, flags, creating: .newOnly, files: files)
      if let fd = opened, !files.syncDirectory(of: path) {
        let code = errno
        files.close(fd)
        throw FileError.io(path: path, operation: "sync directory", errno: code)
      }
    }
    // Created by another process between the two opens: open what it made.
    guard let fd = try opened ?? Self.openRegularFile(path, flags, files: files) else {
      throw FileError.io(path: path, operation: "open", errno: ENOENT)
    }
    self.path = path
    self.fd = fd
    self.files = files
  }

  deinit { files.close(fd) }

  /// Opens one of the store's files (``PrivateFile/open(_:_:files:)``): a directory, a
  /// device, a pipe or a link at a store path is a ``FileError/notRegularFile(path:found:)``
  /// naming it. Nil: there is no such file (or, creating it exclusively, there is one).
  static func openRegularFile(
    _ path: String, _ flags: Int32, files: any DurableFiles = SystemFiles()
  ) throws -> Int32? {
    try PrivateFile.open(path, flags, files: files)
  }

  var size: Int {
    var info = stat()
    return fstat(fd, &info) == 0 ? Int(clamping: info.st_size) : offset
  }

  /// The next whole lines written since `offset` (by this process or another) — about
  /// `limit` bytes of them, more only for one line longer than that — unchecked: the caller
  /// checks and decodes them (``JournalLines/decode(_:_:in:salvage:)``). With the file offset
  /// `bytes` starts at; advances past them. No lines: nothing more to read. Reading a long
  /// journal a piece at a time keeps a reopen's memory to what the store holds, not twice it.
  func readNew(limit: Int = 4 << 20) throws -> (bytes: [UInt8], lines: [Range<Int>], start: Int) {
    let start = offset
    let end = size
    guard end >= start else {
      throw FileError.unreadable(path: path, reason: "the journal is shorter than what was read")
    }
    var count = min(end - start, max(1, limit))
    while true {
      guard count > 0 else {
        hasTornTail = false
        return ([], [], start)
      }
      let bytes = try Self.read(fd, at: start, count: count, path: path)
      let scan = JournalLines.scan(bytes, 0..<bytes.count)
      if scan.lines.isEmpty, bytes.count == count, start + count < end {
        count = min(end - start, count * 2)  // one line longer than the piece: read more
        continue
      }
      offset += scan.consumed
      // Only what follows the last whole line at the end of the file is torn.
      hasTornTail = start + bytes.count >= end && scan.consumed < bytes.count
      return (bytes, scan.lines, start)
    }
  }

  /// How many lines the file at `path` holds (0 when it cannot be read): an upper bound on
  /// the changes it records, read a megabyte at a time.
  static func lineCount(at path: String) -> Int {
    guard let fd = try? PrivateFile.open(path, O_RDONLY) else { return 0 }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    var (lines, offset) = (0, 0)
    while true {
      let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset)) }
      if got < 0, errno == EINTR { continue }
      guard got > 0 else { return lines }
      offset += got
      lines += buffer[..<got].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
  }

  /// Up to `count` bytes of `fd` (the store file at `path`) from file offset `offset`, fewer
  /// at the end of the file, resuming after short reads and `EINTR`.
  /// - Throws: ``FileError/io(path:operation:errno:)`` for a failed read.
  static func read(_ fd: Int32, at offset: Int, count: Int, path: String) throws
    -> [UInt8]
  {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let got = bytes.withUnsafeMutableBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return pread(fd, base + filled, buffer.count - filled, off_t(offset + filled))
      }
      if got < 0, errno == EINTR { continue }
      guard got >= 0 else { throw FileError.io(path: path, operation: "read", errno: errno) }
      if got == 0 { break }
      filled += got
    }
    bytes.removeLast(count - filled)
    return bytes
  }

  /// Cuts off a torn tail, so the next record follows the last whole one.
  func dropTornTail() throws {
    guard hasTornTail else { return }
    guard files.truncate(fd, to: offset) else {
      throw FileError.io(path: path, operation: "truncate", errno: errno)
    }
    hasTornTail = false
  }

  /// Appends one record and waits until it is on disk. `pause` is the crash tests' hook,
  /// called with the record half written.
  func append(_ json: Data, pause: ((String) -> Void)? = nil) throws {
    if let code = StoreCrashPoint.injectedFailure(path) {
      throw FileError.io(path: path, operation: "write", errno: code)
    }
    let line = JournalLines.line(for: json)
    var written = true
    if let pause {
      written = files.write(fd, Array(line[..<(line.count / 2)]))
      pause("append.partial")
      written = written && files.write(fd, Array(line[(line.count / 2)...]))
    } else {
      written = files.write(fd, line)
    }
    guard written, files.sync(fd) else {
      let code = errno
      // Whatever part was written is a torn record: take it back now.
      _ = files.truncate(fd, to: offset)
      throw FileError.io(path: path, operation: "write", errno: code)
    }
    offset += line.count
  }
}
