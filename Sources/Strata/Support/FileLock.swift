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
    let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw Failure.io(operation: "open", errno: errno) }
    let deadline = timeout.map { ContinuousClock.now + $0 }
    var pause = Duration.milliseconds(1)
    while flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0 {
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
    let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return flock(fd, LOCK_EX | LOCK_NB) == 0
  }

  /// Lets the next holder in (closing the descriptor drops the lock).
  package func release() { close(fd) }
}
