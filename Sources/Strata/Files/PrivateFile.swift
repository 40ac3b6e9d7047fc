import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The one way the library makes, opens and replaces a file — sessions, stores, the HTTP
/// cache and its index, preferences, locks, a download's part and resume record, a multipart
/// body's staging file. Every such file is:
/// - opened without following a symbolic link (`O_NOFOLLOW`), and used only when it is a
///   regular file owned by the user (checked on the open descriptor, so nothing can be swapped
///   in between the check and the use);
/// - created with mode 0600 (`O_CREAT|O_EXCL` where it must be new), in a directory created
///   0700 in one step (never created, then `chmod`ded: another process could see it between);
/// - replaced whole by write-then-rename where it is a record, so a reader or a crash sees the
///   old one or the new one.
///
/// A lint keeps `open(`, `createFile`, `Data.write(to:)` and the shared temporary directory out
/// of the rest of the library. The one exception is ``openUserFile(_:)``: a file the user
/// named to be read (a configuration file, a file to upload), where a link is the user's choice.
enum PrivateFile {
  /// The mode of every file the library creates.
  static let mode: mode_t = 0o600

  /// Whether an open may make the file: only here is a file created, so every file the
  /// library makes is 0600 and, where it must be new, made exclusively.
  enum Creation {
    /// An existing file only.
    case never
    /// Made (0600) when missing.
    case ifMissing
    /// Made (0600) only when there is none (`O_EXCL`): a name another writer holds is nil.
    case newOnly
  }

  /// Opens the library's file at `path` with the access `flags` (`O_RDONLY`, `O_WRONLY`,
  /// `O_RDWR`, `O_APPEND`; `O_TRUNC` empties it once it is known to be the user's regular
  /// file), made as `creating` says. Nil when there is no such file (or, new only, when there
  /// is one).
  /// - Throws: ``FileError/notRegularFile(path:found:)`` for a link, a directory, a device or
  ///   a pipe at `path`; ``FileError/foreignOwner(path:owner:)`` for another user's file;
  ///   ``FileError/io(path:operation:errno:)`` for anything else.
  static func open(
    _ path: String, _ flags: Int32, creating: Creation = .never,
    files: any DurableFiles = SystemFiles()
  ) throws(FileError) -> Int32? {
    let made: Int32 =
      switch creating {
      case .never: 0
      case .ifMissing: O_CREAT
      case .newOnly: O_CREAT | O_EXCL
      }
    // O_NONBLOCK until the type is known: opening a FIFO planted at the path would otherwise
    // wait for ever for its other end; a regular file's reads and writes ignore the flag.
    let fd = files.open(path, flags & ~(O_TRUNC | O_CREAT | O_EXCL) | made | O_NONBLOCK)
    guard fd >= 0 else {
      let code = errno
      if code == ENOENT && creating == .never { return nil }
      if code == EEXIST && creating == .newOnly {
        // Something is there: a link or a directory is named as such, a file is "taken".
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
          throw .notRegularFile(path: path, found: FileError.kind(of: info.st_mode))
        }
        return nil
      }
      if code == ELOOP { throw .notRegularFile(path: path, found: "a symbolic link") }
      if code == EISDIR { throw .notRegularFile(path: path, found: "a directory") }
      throw .io(path: path, operation: "open", errno: code)
    }
    if let problem = problem(fd, path) {
      files.close(fd)
      throw problem
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    // Only a file with bytes is cut: on ext4, cutting even an empty file to 0 marks it to have
    // every block it is then given allocated and flushed when it is closed (the "truncate then
    // rewrite" safeguard, `auto_da_alloc`) — a 200 MB download's close then waited for the
    // disk, a quarter of its time.
    if flags & O_TRUNC != 0, Self.size(of: fd) != 0, !files.truncate(fd, to: 0) {
      let code = errno
      files.close(fd)
      throw .io(path: path, operation: "truncate", errno: code)
    }
    return fd
  }

  /// The mode a new file of the user's gets (a download's destination): 0666 less the
  /// process's umask, as `open(2)` would give it.
  static var userFileMode: mode_t {
    0o666 & ~currentUmask()
  }

  /// The process's umask, read without changing it where the system can (Linux's
  /// `/proc/self/status`); elsewhere set and restored at once — a file another thread
  /// creates in between gets the library's own explicit mode or stricter, never looser.
  private static func currentUmask() -> mode_t {
    #if os(Linux)
      if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
        let mask = mode_t(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8)
      {
        return mask & 0o777
      }
    #endif
    let mask = umask(0o077)
    umask(mask)
    return mask
  }

  /// Why the open file `fd` (at `path`) is not one of the user's regular files; nil: it is.
  static func problem(_ fd: Int32, _ path: String) -> FileError? {
    var info = stat()
    guard fstat(fd, &info) == 0 else { return .io(path: path, operation: "fstat", errno: errno) }
    guard info.st_mode & S_IFMT == S_IFREG else {
      return .notRegularFile(path: path, found: FileError.kind(of: info.st_mode))
    }
    guard info.st_uid == geteuid() else { return .foreignOwner(path: path, owner: info.st_uid) }
    return nil
  }

  /// The whole of the library's file at `path`. Nil when there is none.
  /// - Throws: As ``open(_:_:files:)``; ``FileError/tooLarge(path:size:limit:)`` over `limit`
  ///   bytes, ``FileError/io(path:operation:errno:)`` when a read fails.
  static func read(_ path: String, limit: Int) throws(FileError) -> [UInt8]? {
    guard let fd = try open(path, O_RDONLY) else { return nil }
    defer { closeFile(fd) }
    var info = stat()
    let expected = fstat(fd, &info) == 0 ? Int(clamping: info.st_size) : 0
    guard expected <= limit else { throw .tooLarge(path: path, size: expected, limit: limit) }
    // Sized by `fstat`, read until the end (the file may have grown meanwhile).
    var bytes = [UInt8](repeating: 0, count: max(expected, 1 << 12))
    var count = 0
    while true {
      if count == bytes.count {
        guard count < limit else { throw .tooLarge(path: path, size: count + 1, limit: limit) }
        bytes += [UInt8](repeating: 0, count: min(bytes.count, limit - count))
      }
      let got = bytes.withUnsafeMutableBytes { buffer in
        systemRead(fd, buffer.baseAddress.map { $0 + count }, buffer.count - count)
      }
      if got < 0 && errno == EINTR { continue }
      guard got >= 0 else { throw .io(path: path, operation: "read", errno: errno) }
      if got == 0 { break }
      count += got
    }
    bytes.removeSubrange(count...)
    return bytes
  }

  /// Opens a file the user named, to read it (a configuration file, a file to upload): a
  /// symbolic link is followed — where it points is the user's choice — but only a regular
  /// file is read (a pipe would block, a device never end). Never creates anything.
  /// - Throws: ``FileError`` naming the path.
  static func openUserFile(_ path: String) throws(FileError) -> Int32 {
    let fd = cOpen(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0)
    guard fd >= 0 else { throw .io(path: path, operation: "open", errno: errno) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      closeFile(fd)
      throw .notRegularFile(path: path, found: FileError.kind(of: info.st_mode))
    }
    return fd
  }

  /// A file the user named, read a piece at a time (a request body as it is sent).
  final class Pieces: @unchecked Sendable {
    // Read from one iterator, one task at a time.
    private let fd: Int32
    private let path: String

    /// - Throws: As ``openUserFile(_:)``.
    init(_ path: String) throws(FileError) { (fd, self.path) = (try openUserFile(path), path) }
    deinit { closeFile(fd) }

    /// The next piece of at most `size` bytes; nil at the end.
    /// - Throws: ``FileError/io(path:operation:errno:)`` when a read fails.
    func next(_ size: Int = 64 << 10) throws(FileError) -> Data? {
      var piece = Data(count: size)
      while true {
        let got = piece.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, size) }
        if got < 0 && errno == EINTR { continue }
        guard got >= 0 else { throw .io(path: path, operation: "read", errno: errno) }
        guard got > 0 else { return nil }
        piece.count = got
        return piece
      }
    }
  }

  /// Opens a file of the system's that the library reads or writes but never creates (the
  /// kernel's memory-pressure file): the path is fixed in the code, never from input.
  static func openSystemFile(_ path: String, _ flags: Int32) -> Int32 {
    cOpen(path, flags & ~O_CREAT | O_CLOEXEC, 0)
  }

  /// Replaces the file at `path` with `bytes` so a reader sees the old file or the new one,
  /// never half of either — also when the process is killed mid-write or the power goes: a
  /// new file (0600, or `mode` for a file of the user's) is written beside it, synced, renamed
  /// over it, and the directory synced.
  /// A link at `path` is replaced, never written through. `beforeRename` (the crash tests'
  /// hook) runs with the new file complete and not yet renamed into place. `syncs: false`
  /// leaves both syncs out, for a record whose loss at a power cut costs only work done
  /// again (a download's resume record): a sync commits the file system's journal, which
  /// first writes out every other file's pending data — after a 200 MB download, seconds.
  /// - Returns: nil, or the failed step and its `errno`.
  static func replace(
    _ path: String, with bytes: some Sequence<UInt8>, mode: mode_t = mode, syncs: Bool = true,
    files: any DurableFiles = SystemFiles(), beforeRename: (() -> Void)? = nil
  ) -> (operation: String, errno: Int32)? {
    let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd: Int32
    do {
      guard let made = try open(temporary, O_WRONLY, creating: .newOnly, files: files) else {
        return ("create", EEXIST)
      }
      fd = made
    } catch {
      if case .io(_, _, let code) = error { return ("create", code) }
      return ("create", EEXIST)
    }
    let written =
      (mode == Self.mode || fchmod(fd, mode) == 0) && files.write(fd, Array(bytes))
      && (!syncs || files.sync(fd))
    let code = errno
    files.close(fd)
    guard written else {
      files.unlink(temporary)
      return ("write", code)
    }
    beforeRename?()
    guard files.rename(temporary, path) else {
      let failure = errno
      files.unlink(temporary)
      return ("rename", failure)
    }
    // The rename itself survives a power cut only once its directory is synced.
    guard !syncs || files.syncDirectory(of: path) else { return ("sync directory", errno) }
    return nil
  }

  /// The size of the open file `fd` in bytes; nil when it cannot be read.
  static func size(of fd: Int32) -> Int? {
    var info = stat()
    return fstat(fd, &info) == 0 ? Int(clamping: info.st_size) : nil
  }

  /// The size of the library's file at `path` in bytes; 0 when there is none, or it is no
  /// regular file (a link is not followed).
  static func size(of path: String) -> Int {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
      ? Int(clamping: info.st_size) : 0
  }

  /// What changes whenever the file at `path` is replaced or written (its inode, size and
  /// change time to the nanosecond; a link is not followed), or nil when nothing is there: a
  /// cheap way to tell a file changed without reading it or taking its lock.
  static func stamp(of path: String) -> String? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    #if canImport(Darwin)
      let changed = info.st_ctimespec
    #else
      let changed = info.st_ctim
    #endif
    return "\(info.st_ino)-\(info.st_size)-\(changed.tv_sec).\(changed.tv_nsec)"
  }

  /// A new file of the library's for writing, made 0600; nil when the name is taken.
  static func create(_ path: String) throws(FileError) -> Int32? {
    try open(path, O_WRONLY, creating: .newOnly)
  }

  /// Creates `directory` and any missing parents, each with mode 0700 from the start.
  /// - Returns: nil, or the `errno` of the failure.
  static func makeDirectory(_ directory: String) -> Int32? {
    var path = directory.hasPrefix("/") ? "" : "."
    for component in directory.split(separator: "/") {
      path += "/" + component
      if mkdir(path, 0o700) != 0 {
        let code = errno
        guard code == EEXIST else { return code }
        continue
      }
      DirectoryProtection.apply(to: path)
    }
    return nil
  }

  /// What makes a directory unfit to hold private files.
  enum DirectoryProblem: Equatable {
    case foreignOwner(UInt32)
    case writableByOthers(mode: UInt16)
    case symbolicLink
    case failed(operation: String, errno: Int32)
  }

  /// Checks that `directory` belongs to the current user and no one else can write in it (so
  /// no one can swap a file there) — with `ownerOnly`, that no one else can even read it, and
  /// that it is no symbolic link; with `create`, a missing one is created with mode 0700.
  /// A missing directory without `create` is no problem (there is nothing to read yet).
  static func checkDirectory(
    _ directory: String, create: Bool, ownerOnly: Bool = false
  ) -> DirectoryProblem? {
    var info = stat()
    let found = ownerOnly ? lstat(directory, &info) : stat(directory, &info)
    guard found == 0 else {
      guard errno == ENOENT, create else { return nil }
      if let code = makeDirectory(directory) { return .failed(operation: "mkdir", errno: code) }
      return checkDirectory(directory, create: false, ownerOnly: ownerOnly)
    }
    if info.st_mode & S_IFMT == S_IFLNK { return .symbolicLink }
    guard info.st_mode & S_IFMT == S_IFDIR else { return .failed(operation: "use", errno: ENOTDIR) }
    guard info.st_uid == geteuid() else { return .foreignOwner(UInt32(info.st_uid)) }
    let mode = UInt16(info.st_mode & 0o777)
    guard mode & (ownerOnly ? 0o077 : 0o022) == 0 else { return .writableByOthers(mode: mode) }
    // A writer's directory made by an earlier version, without the protection class, gets it.
    if create { DirectoryProtection.apply(to: directory) }
    return nil
  }

  /// The `open` system call every file of the library passes through: never a link, never
  /// inherited by a child process, created 0600.
  static func systemOpen(_ path: String, _ flags: Int32) -> Int32 {
    cOpen(path, flags | O_NOFOLLOW | O_CLOEXEC, flags & O_CREAT != 0 ? mode : 0)
  }

  /// A directory, opened to sync the names in it (a link to a directory is fine: nothing is
  /// written through it).
  static func openDirectory(_ path: String) -> Int32 {
    cOpen(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
  }
}

// At file scope these names are the C functions, not the members above.
private func cOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
  open(path, flags, mode)
}
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}
private func closeFile(_ fd: Int32) { _ = close(fd) }
