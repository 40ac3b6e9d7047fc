import Foundation
import StrataConcurrency

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Credentials in a JSON file only its owner can read, safe to share between processes.
/// - Written atomically: a new file is created with mode 0600, written, synced and renamed over
///   the old one, so a crash never leaves a half-written file in place.
/// - Trusted only when the current user owns it, no one else can read it (mode `& 0o077 == 0`),
///   it is a regular file (not a symbolic link) of at most 64 KiB, and its directory is owned by
///   the current user and writable by no one else; otherwise ``load()`` and ``save(_:)`` throw a
///   ``FileError`` that says what to fix.
/// - ``clear()`` removes the file whatever its mode, owner or content, so signing out always
///   works; ``storedOwner()`` reads the account such a file names (never its tokens), so the
///   sign-out also forgets that account's answers.
/// - ``lockForRefresh()`` takes an advisory `flock` on `<file>.lock`, so processes sharing the
///   file refresh one at a time.
/// - A corrupt file (a torn write from another tool, or garbage) reads as signed out.
/// - Default location: `$XDG_CONFIG_HOME/<app>/credentials.json`, else
///   `~/.config/<app>/credentials.json` (Apple platforms: `Library/Application Support/<app>`); the
///   directory is created with mode 0700.
public final class FileTokenStore: TokenStore {
  /// Why the store refused to work.
  /// The largest credentials file read.
  package static let maxFileSize = 64 * 1024

  /// Where the credentials are kept.
  public let path: String

  /// How long ``lockForRefresh()`` waits for another process.
  package let lockTimeout: Duration

  /// The stamp (``PrivateFile/stamp(of:)``) of the unusable file last warned about: one
  /// warning per damaged file, however often a run reads it.
  private let warnedAbout = Lock<String?>(nil)

  /// Creates a store at an explicit path.
  package init(path: String, lockTimeout: Duration = .seconds(30)) {
    (self.path, self.lockTimeout) = (path, lockTimeout)
  }

  /// The store at `<config home>/<app>/credentials.json` (`AppDirectories`).
  package convenience init(
    app: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.init(path: AppDirectories(app: app, environment: environment).config + "/credentials.json")
  }

  /// The store for one API origin's session at
  /// `<config home>/<app>/sessions/<scheme>_<host>_<port>.json`, so sessions with different
  /// APIs never touch each other's files.
  public convenience init(
    app: String, origin: Origin,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.init(
      path: AppDirectories(app: app, environment: environment).config + "/sessions/"
        + AppDirectories.component(for: origin) + ".json")
  }

  /// - Returns: The credentials, or nil when there is no file or it is corrupt.
  /// - Throws: ``FileError`` for a file or directory that cannot be trusted.
  public func load() throws -> Credentials? {
    try checkDirectory(create: false)
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT { return nil }
      throw FileError.io(path: path, operation: "stat", errno: errno)
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw FileError.notRegularFile(path: path, found: FileError.kind(of: info.st_mode))
    }
    guard info.st_uid == geteuid() else {
      throw FileError.foreignOwner(path: path, owner: UInt32(info.st_uid))
    }
    let mode = UInt16(info.st_mode & 0o777)
    guard mode & 0o077 == 0 else { throw FileError.readableByOthers(path: path, mode: mode) }
    guard Int(clamping: info.st_size) <= Self.maxFileSize else {
      throw FileError.tooLarge(
        path: path, size: Int(clamping: info.st_size), limit: Self.maxFileSize)
    }
    let data = try readContents()
    do {
      return try JSONDecoder().decode(Credentials.self, from: data)
    } catch {
      let stamp = PrivateFile.stamp(of: path)
      let told = warnedAbout.withLock { last in
        defer { last = stamp }
        return stamp != nil && last == stamp
      }
      if !told {
        Log.auth.warning(
          "credentials file \(path) is unreadable (\(data.count) bytes); treating as signed out")
      }
      return nil
    }
  }

  /// At most ``maxFileSize`` bytes of the file, without following a symbolic link.
  private func readContents() throws -> Data {
    guard let fd = try PrivateFile.open(path, O_RDONLY) else {
      throw FileError.io(path: path, operation: "open", errno: ENOENT)
    }
    let file = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    guard let data = try? file.read(upToCount: Self.maxFileSize + 1) ?? Data() else {
      throw FileError.io(path: path, operation: "read", errno: errno)
    }
    guard data.count <= Self.maxFileSize else {
      throw FileError.tooLarge(path: path, size: data.count, limit: Self.maxFileSize)
    }
    return data
  }

  /// Whose session the file names, read whatever its mode or owner (a regular file of at most
  /// 64 KiB, not through a symbolic link); only the account is used, never the tokens.
  public func storedOwner() -> DataOwner {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
      let data = try? readContents()
    else { return .device }
    struct Named: Decodable { let account: String? }
    return DataOwner(account: (try? JSONDecoder().decode(Named.self, from: data))?.account)
  }

  /// What identifies the file's current version without reading it — inode, size and change
  /// time — nil when there is none: a sign-out or sign-in in another process changes it (a
  /// save renames a new file over the old one), at the cost of one `lstat`.
  public func stamp() -> String? { PrivateFile.stamp(of: path) }

  /// Writes the credentials atomically with mode 0600.
  public func save(_ credentials: Credentials) throws {
    try checkDirectory(create: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = try encoder.encode(credentials)
    if let failure = PrivateFile.replace(path, with: data) {
      throw FileError.io(path: path, operation: failure.operation, errno: failure.errno)
    }
    #if canImport(Darwin)
      // A session is this device's: never in a backup restored onto another one (the
      // Keychain store's items are `…ThisDeviceOnly` for the same reason).
      var folder = URL(fileURLWithPath: (path as NSString).deletingLastPathComponent)
      var values = URLResourceValues()
      values.isExcludedFromBackup = true
      try? folder.setResourceValues(values)
    #endif
  }

  /// Deletes the file, whatever its mode: signing out always removes the session.
  /// - Throws: `Failure/io(path:operation:errno:)` unless it did not exist.
  public func clear() throws {
    guard unlink(path) == 0 || errno == ENOENT else {
      throw FileError.io(path: path, operation: "delete", errno: errno)
    }
  }

  /// Takes an exclusive `flock` on `<file>.lock` (polling, rather than blocking a
  /// thread of the concurrency pool) for at most `lockTimeout`.
  /// - Throws: `Failure/lockTimedOut(path:)`, or `Failure` for an untrusted directory.
  public func lockForRefresh() async throws -> TokenStoreLock {
    try await Self.refreshLock(path + ".lock", timeout: lockTimeout)
  }

  /// An exclusive `flock` on `lockPath` (its directory checked, made if missing), polled for
  /// at most `timeout`: what processes sharing a session take for a whole refresh.
  package static func refreshLock(_ lockPath: String, timeout: Duration) async throws
    -> TokenStoreLock
  {
    try checkDirectory((lockPath as NSString).deletingLastPathComponent, create: true)
    do {
      let lock = try await FileLock.acquire(lockPath, exclusive: true, timeout: timeout)
      return TokenStoreLock { lock.release() }
    } catch FileLock.Failure.io(let operation, let code) {
      throw FileError.io(path: lockPath, operation: operation, errno: code)
    } catch is FileLock.Failure {
      throw FileError.lockTimedOut(path: lockPath)
    }
  }

  /// The file's directory must belong to the current user and be writable by no one else;
  /// with `create`, a missing one is created with mode 0700.
  private func checkDirectory(create: Bool) throws {
    let directory = (path as NSString).deletingLastPathComponent
    try Self.checkDirectory(directory, create: create)
  }

  /// `directory` must belong to the current user and be writable by no one else (`create`:
  /// a missing one is made, mode 0700) — the rule for every file that holds a session.
  package static func checkDirectory(_ directory: String, create: Bool) throws {
    if let refused = FileError.directory(
      directory, PrivateFile.checkDirectory(directory, create: create))
    {
      throw refused
    }
  }

}
