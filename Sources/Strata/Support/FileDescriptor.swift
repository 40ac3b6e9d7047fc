import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Raw descriptor I/O shared by the log output and the token file.
package enum FileDescriptor {
  /// Writes every byte of `bytes` to `fd`, resuming after partial writes and `EINTR`.
  /// - Returns: False if the descriptor refused (closed pipe, full disk, …).
  @discardableResult
  package static func writeAll(_ fd: Int32, _ bytes: some Sequence<UInt8>) -> Bool {
    Array(bytes).withUnsafeBytes { buffer in
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
  }

  /// Replaces the file at `path` with `bytes` so a reader sees the old file or the new one,
  /// never half of either — also when the process is killed mid-write: a new file (mode
  /// `mode`) is written beside it, synced, renamed over it, and the directory synced.
  /// - Returns: nil, or the failed step and its `errno`.
  package static func replaceAtomically(
    _ path: String, with bytes: some Sequence<UInt8>, mode: mode_t
  )
    -> (operation: String, errno: Int32)?
  {
    let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard fd >= 0 else { return ("create", errno) }
    let written = writeAll(fd, bytes) && fsync(fd) == 0
    let code = errno
    close(fd)
    guard written else {
      unlink(temporary)
      return ("write", code)
    }
    guard rename(temporary, path) == 0 else {
      let failure = errno
      unlink(temporary)
      return ("rename", failure)
    }
    let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    let directoryFD = open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
    if directoryFD >= 0 {
      fsync(directoryFD)  // the rename itself survives a power cut
      close(directoryFD)
    }
    return nil
  }

  /// Creates `directory` and its parents, private (mode 0700).
  /// - Returns: nil, or the `errno` of the failure.
  package static func makePrivateDirectory(_ directory: String) -> Int32? {
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
      return nil
    } catch {
      return errno == 0 ? EIO : errno
    }
  }
}
