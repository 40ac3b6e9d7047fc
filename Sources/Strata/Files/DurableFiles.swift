#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The file operations a durable write is made of: what has reached the disk is only what a
/// `sync` (of the file) or a `syncDirectory` (of a name created, renamed or removed in it)
/// said so. The store writes through this seam so that a test double can keep unsynced bytes
/// and names apart and drop them at a simulated power cut — a write that forgot its
/// `fdatasync` then fails a test instead of passing every one. Failures return false or -1
/// with `errno` set, as the system calls do.
package protocol DurableFiles: Sendable {
  /// `open(2)` as ``PrivateFile/systemOpen(_:_:)`` does it: never through a link, created
  /// 0600.
  func open(_ path: String, _ flags: Int32) -> Int32
  func close(_ fd: Int32)
  func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool
  /// `fdatasync` (`F_FULLFSYNC` on Darwin): the file's bytes are on disk.
  func sync(_ fd: Int32) -> Bool
  func truncate(_ fd: Int32, to length: Int) -> Bool
  func rename(_ from: String, _ to: String) -> Bool
  func unlink(_ path: String)
  /// The names created, renamed or removed in `path`'s directory are on disk.
  func syncDirectory(of path: String) -> Bool
}

/// The system calls themselves.
package struct SystemFiles: DurableFiles {
  package init() {}

  package func open(_ path: String, _ flags: Int32) -> Int32 {
    PrivateFile.systemOpen(path, flags)
  }

  package func close(_ fd: Int32) { systemClose(fd) }

  package func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool { FileDescriptor.writeAll(fd, bytes) }

  #if canImport(Darwin)
    // Darwin's headers declare no `fdatasync`, and its `fsync` leaves the bytes in the drive's
    // own cache, where a power cut loses them: `F_FULLFSYNC` asks the drive to write them out.
    // Some file systems (network, FAT) refuse it; `fsync` is then the most there is.
    package func sync(_ fd: Int32) -> Bool { fcntl(fd, F_FULLFSYNC) == 0 || fsync(fd) == 0 }
  #else
    package func sync(_ fd: Int32) -> Bool { fdatasync(fd) == 0 }
  #endif

  package func truncate(_ fd: Int32, to length: Int) -> Bool { ftruncate(fd, off_t(length)) == 0 }

  package func rename(_ from: String, _ to: String) -> Bool { systemRename(from, to) == 0 }

  package func unlink(_ path: String) { systemUnlink(path) }

  package func syncDirectory(of path: String) -> Bool {
    let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    let fd = PrivateFile.openDirectory(directory.isEmpty ? "." : directory)
    guard fd >= 0 else { return false }
    defer { systemClose(fd) }
    return fsync(fd) == 0
  }
}

// At file scope these names are the C functions, not the members above.
private func systemClose(_ fd: Int32) { _ = close(fd) }
private func systemRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
private func systemUnlink(_ path: String) { _ = unlink(path) }
