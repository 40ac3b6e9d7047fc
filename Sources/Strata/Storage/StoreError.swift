import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Why a ``LocalStore`` could not read or write its files, as a sentence naming the path.
public enum StoreError: Error, Equatable, CustomStringConvertible, LocalizedError {
  /// Something other than a regular file is where a store file belongs.
  case notRegularFile(path: String, found: String)
  /// The store's directory belongs to another user or others may write in it.
  case insecureDirectory(path: String, reason: String)
  /// The snapshot was written by another format version.
  case unsupportedVersion(path: String, found: Int, expected: Int)
  /// The snapshot is damaged (the decoder's explanation).
  case unreadable(path: String, reason: String)
  /// A file, or one value, is over the limit.
  case tooLarge(path: String, size: Int, limit: Int)
  /// The store holds as much as it may (`limit` bytes of snapshot and journal): a new change
  /// is refused, before anything is written, so what is kept can always be read back.
  case full(path: String, limit: Int)
  /// Another process held the store's lock for longer than the time limit.
  case lockTimedOut(path: String)
  /// A sync of this store is running (in this process or another): its changes are sent by
  /// it, and anything queued after it started by the next one.
  case syncInProgress(path: String)
  /// A filesystem call failed.
  case io(path: String, operation: String, errno: Int32)

  public var description: String {
    switch self {
    case .notRegularFile(let path, let found):
      "\(path) is \(found), not a store file: move it away"
    case .insecureDirectory(let path, let reason):
      "refusing to keep data in \(path): \(reason)"
    case .unsupportedVersion(let path, let found, let expected):
      "\(path) was written by format version \(found); this build reads version \(expected)"
    case .unreadable(let path, let reason):
      "\(path) is damaged: \(UntrustedText.sanitize(reason, limit: 160))"
    case .tooLarge(let path, let size, let limit):
      "\(path): \(size) bytes is over the \(limit)-byte limit"
    case .full(let path, let limit):
      "the store \(path) holds its limit of \(limit) bytes: the change was not kept; sync or "
        + "discard changes first"
    case .lockTimedOut(let path):
      "another process held \(path) for too long; try again"
    case .syncInProgress(let path):
      "a sync of \(path) is already running; what it does not send, the next sync will"
    case .io(let path, let operation, let code):
      "\(path): \(operation) failed: \(String(cString: strerror(code)))"
    }
  }

  public var errorDescription: String? { description }

  /// What kind of file `mode` says a path is, for ``notRegularFile(path:found:)``.
  static func kind(of mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: "a directory"
    case S_IFLNK: "a symbolic link"
    case S_IFCHR, S_IFBLK: "a device"
    case S_IFIFO: "a pipe"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }
}
