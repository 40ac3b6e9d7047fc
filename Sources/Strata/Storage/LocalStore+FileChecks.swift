import Foundation

/// What the store asks of the file system before it touches its files: a private directory,
/// and its `flock`s, with their failures mapped to ``FileError``.
extension LocalStore {
  /// The store's directory must be the user's own, mode 0700, and not a symbolic link: the
  /// changes in it are the user's, and a link could point them anywhere.
  func checkDirectory() throws {
    guard !directoryChecked else { return }
    let directory = (base as NSString).deletingLastPathComponent
    if let refused = FileError.directory(
      directory, PrivateFile.checkDirectory(directory, create: true, ownerOnly: true))
    {
      throw refused
    }
    directoryChecked = true
  }

  func lock(_ path: String, exclusive: Bool, wait: Bool) async throws -> FileLock {
    do {
      return try await FileLock.acquire(
        path, exclusive: exclusive, timeout: wait ? options.lockTimeout : nil)
    } catch FileLock.Failure.busy {
      throw FileError.syncInProgress(path: base)
    } catch FileLock.Failure.timedOut {
      throw FileError.lockTimedOut(path: path)
    } catch FileLock.Failure.io(let operation, let code) {
      throw FileError.io(path: path, operation: operation, errno: code)
    }
  }
}
