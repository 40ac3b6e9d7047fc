import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An advisory `flock` on a lock file that is never replaced, held by one open descriptor:
/// processes (and separate opens in one process) that take it run one at a time. The kernel
/// drops it when the holder dies, so a killed process never leaves it taken.
package struct FileLock: Sendable {
  package enum Failure: Error, Equatable {
    /// Someone else holds it (only when asked not to wait).
    case busy
    /// It was not free within the time limit.
    case timedOut
    case io(operation: String, errno: Int32)
  }

  private let fd: Int32

  /// Takes the lock on `path` (created with mode 0600), shared or exclusive. Waiting polls,
  /// from 1 ms up to every 10 ms, rather than block: a blocked `flock` would hold one of the
  /// concurrency pool's few threads. `timeout: nil` tries once and throws `Failure/busy`.
  package static func acquire(_ path: String, exclusive: Bool, timeout: Duration?) async throws
    -> FileLock
  {
    var fd = try opened(path)
    let deadline = timeout.map { ContinuousClock.now + $0 }
    var pause = Duration.milliseconds(1)
    // Taken, but on a file its holder removed as it let go (`release(removing:)`): the lock
    // that counts is on the file now at `path`, so that one is opened and taken instead.
    func replaced() -> Bool {
      var held = stat()
      var named = stat()
      guard fstat(fd, &held) == 0, lstat(path, &named) == 0 else { return true }
      return held.st_dev != named.st_dev || held.st_ino != named.st_ino
    }
    while true {
      if flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 {
        guard replaced() else { break }
        close(fd)
        fd = try opened(path)
        continue
      }
      let code = errno
      if code == EINTR { continue }
      guard code == EWOULDBLOCK else {
        close(fd)
        throw Failure.io(operation: "lock", errno: code)
      }
      guard let deadline else {
        close(fd)
        throw Failure.busy
      }
      guard ContinuousClock.now < deadline else {
        close(fd)
        throw Failure.timedOut
      }
      do {
        try await Task.sleep(for: pause)
      } catch {
        close(fd)
        throw error
      }
      pause = min(pause * 2, .milliseconds(10))
    }
    return FileLock(fd: fd)
  }

  /// Whether no one holds `path`'s lock at this instant: taken without waiting and let go at
  /// once. False when it cannot be told (the file cannot be opened).
  package static func isFree(_ path: String) -> Bool {
    guard let fd = try? opened(path) else { return false }
    defer { close(fd) }
    return flock(fd, LOCK_EX | LOCK_NB) == 0
  }

  /// The lock file, opened (created 0600 when missing) as ``PrivateFile`` opens any file.
  /// - Throws: ``FileError`` for a link, a directory or another user's file in its place.
  private static func opened(_ path: String) throws(FileError) -> Int32 {
    guard let fd = try PrivateFile.open(path, O_RDWR, creating: .ifMissing) else {
      throw .io(path: path, operation: "open", errno: ENOENT)
    }
    return fd
  }

  /// Lets the next holder in (closing the descriptor drops the lock).
  package func release() { close(fd) }

  /// Removes the lock file, then lets the next holder in: for a lock beside a file of the
  /// user's (a download's), which should leave nothing behind. A waiter that took the removed
  /// file's lock sees it is gone and takes the new one's.
  func release(removing path: String) {
    unlink(path)
    close(fd)
  }
}
