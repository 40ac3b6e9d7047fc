import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Why a file the library keeps — a ``LocalStore``'s, a session's (``FileTokenStore``) —
/// could not be read or written, as a sentence naming the path and what to do.
public enum FileError: Error, Equatable, CustomStringConvertible, LocalizedError {
  /// Something other than what belongs there is at `path` (`found`: "a directory", "a
  /// symbolic link", …).
  case notRegularFile(path: String, found: String)
  /// The file can be read by other users; what it holds is not trusted (a session file).
  case readableByOthers(path: String, mode: UInt16)
  /// The directory lets other users in: they could swap a file (or, for what only its owner
  /// may read, read one).
  case insecureDirectory(path: String, mode: UInt16)
  /// The file or its directory belongs to another user.
  case foreignOwner(path: String, owner: UInt32)
  /// The file was written by another format version.
  case unsupportedVersion(path: String, found: Int, expected: Int)
  /// The file is damaged (the decoder's explanation).
  case unreadable(path: String, reason: String)
  /// A file, or one value, is over the limit.
  case tooLarge(path: String, size: Int, limit: Int)
  /// The store holds as much as it may (`limit` bytes of snapshot and journal): a new change
  /// is refused, before anything is written, so what is kept can always be read back.
  case full(path: String, limit: Int)
  /// Another process held the file's lock for longer than the time limit.
  case lockTimedOut(path: String)
  /// A sync of this store is running (in this process or another): its changes are sent by
  /// it, and anything queued after it started by the next one.
  case syncInProgress(path: String)
  /// Another download to this path (in this process or another) is under way.
  case busy(path: String)
  /// A file system call failed.
  case io(path: String, operation: String, errno: Int32)

  public var description: String {
    switch self {
    case .notRegularFile(let path, let found):
      "refusing to use \(path): it is \(found), not a regular file; move it away"
    case .readableByOthers(let path, let mode):
      "refusing to read \(path): mode \(String(mode, radix: 8)) lets other users read it; run "
        + "chmod 600 \(path)"
    case .insecureDirectory(let path, let mode):
      "refusing to keep data in \(path): mode \(String(mode, radix: 8)) lets other users in; "
        + "run chmod 700 \(path)"
    case .foreignOwner(let path, let owner):
      "refusing to use \(path): it belongs to user \(owner), not to you"
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
    case .busy(let path):
      "another download to \(path) is under way; try again once it has ended"
    case .io(let path, let operation, let code):
      "\(path): \(operation) failed: \(String(cString: strerror(code)))"
    }
  }

  public var errorDescription: String? { description }

  /// Refuses `directory` for `problem` — the one reading of the private-directory check, for
  /// every file the library keeps; nil when there is none.
  static func directory(_ directory: String, _ problem: PrivateFile.DirectoryProblem?)
    -> FileError?
  {
    switch problem {
    case nil: nil
    case .foreignOwner(let owner): .foreignOwner(path: directory, owner: owner)
    case .writableByOthers(let mode): .insecureDirectory(path: directory, mode: mode)
    case .symbolicLink: .notRegularFile(path: directory, found: "a symbolic link")
    case .failed(let operation, let code): .io(path: directory, operation: operation, errno: code)
    }
  }

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
