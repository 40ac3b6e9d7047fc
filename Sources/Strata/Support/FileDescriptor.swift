import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Raw descriptor I/O shared by the log output, the token file and downloads.
package enum FileDescriptor {
  /// Writes every byte of `bytes` to `fd`, resuming after partial writes and `EINTR`.
  /// - Returns: False if the descriptor refused (closed pipe, full disk, …); `errno` says why.
  @discardableResult
  package static func writeAll(_ fd: Int32, _ bytes: some Sequence<UInt8>) -> Bool {
    Array(bytes).withUnsafeBytes { writeAll(fd, $0) }
  }

  /// The same for bytes already in memory (a download's pieces): no copy.
  @discardableResult
  package static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
    guard let base = buffer.baseAddress else { return true }
    var offset = 0
    while offset < buffer.count {
      let written = write(fd, base + offset, buffer.count - offset)
      if written < 0 && errno == EINTR { continue }
      if written <= 0 { return false }
      offset += written
    }
    return true
  }

  /// Replaces the file at `path` with `bytes` so a reader sees the old file or the new one,
  /// never half of either — also when the process is killed mid-write or the power goes: a
  /// new file (mode `mode`) is written beside it, synced, renamed over it, and the directory
  /// synced. `beforeRename` (the crash tests' hook) runs with the new file complete and not
  /// yet renamed into place.
  /// - Returns: nil, or the failed step and its `errno`.
  package static func replaceAtomically(
    _ path: String, with bytes: some Sequence<UInt8>, mode: mode_t,
    files: any DurableFiles = SystemFiles(), beforeRename: (() -> Void)? = nil
  )
    -> (operation: String, errno: Int32)?
  {
    let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd = files.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard fd >= 0 else { return ("create", errno) }
    let written = files.write(fd, Array(bytes)) && files.sync(fd)
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
    guard files.syncDirectory(of: path) else { return ("sync directory", errno) }
    return nil
  }

  /// The size of the file at `path` in bytes; 0 when there is none.
  package static func size(of path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
  }

  /// Creates `directory` and its parents, private (mode 0700).
  /// - Returns: nil, or the `errno` of the failure.
  package static func makePrivateDirectory(_ directory: String) -> Int32? {
    var attributes: [FileAttributeKey: Any] = [.posixPermissions: 0o700]
    #if canImport(Darwin)
      // iOS: readable once the device was unlocked after boot (a background sync can run),
      // encrypted before; files made inside take the directory's class.
      attributes[.protectionKey] = FileProtectionType.completeUntilFirstUserAuthentication
    #endif
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true, attributes: attributes)
      return nil
    } catch {
      return errno == 0 ? EIO : errno
    }
  }

  /// What makes a directory unfit to hold private files.
  package enum DirectoryProblem: Equatable {
    case foreignOwner(UInt32)
    case writableByOthers(mode: UInt16)
    case symbolicLink
    case failed(operation: String, errno: Int32)
  }

  /// Checks that `directory` belongs to the current user and no one else can write in it (so
  /// no one can swap a file there) — with `ownerOnly`, that no one else can even read it, and
  /// that it is no symbolic link; with `create`, a missing one is created with mode 0700.
  /// A missing directory without `create` is no problem (there is nothing to read yet).
  package static func checkPrivateDirectory(
    _ directory: String, create: Bool, ownerOnly: Bool = false
  ) -> DirectoryProblem? {
    var info = stat()
    let found = ownerOnly ? lstat(directory, &info) : stat(directory, &info)
    guard found == 0 else {
      guard errno == ENOENT, create else { return nil }
      return makePrivateDirectory(directory).map { .failed(operation: "mkdir", errno: $0) }
    }
    if info.st_mode & S_IFMT == S_IFLNK { return .symbolicLink }
    guard info.st_mode & S_IFMT == S_IFDIR else { return .failed(operation: "use", errno: ENOTDIR) }
    guard info.st_uid == geteuid() else { return .foreignOwner(UInt32(info.st_uid)) }
    let mode = UInt16(info.st_mode & 0o777)
    return mode & (ownerOnly ? 0o077 : 0o022) == 0 ? nil : .writableByOthers(mode: mode)
  }
}
