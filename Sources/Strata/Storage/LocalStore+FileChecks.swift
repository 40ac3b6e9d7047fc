import Foundation

/// What the store asks of the file system before it touches its files: a private directory,
/// and its `flock`s, with their failures mapped to ``StoreError``.
extension LocalStore {
  /// The store's directory must be the user's own, mode 0700, and not a symbolic link: the
  /// changes in it are the user's, and a link could point them anywhere.
  func checkDirectory() throws {
    guard !directoryChecked else { return }
    let directory = (base as NSString).deletingLastPathComponent
    switch FileDescriptor.checkPrivateDirectory(directory, create: true, ownerOnly: true) {
    case nil: directoryChecked = true
    case .foreignOwner(let owner):
      throw StoreError.insecureDirectory(path: directory, reason: "it belongs to user \(owner)")
    case .writableByOthers(let mode):
      throw StoreError.insecureDirectory(
        path: directory,
        reason: "mode \(String(mode, radix: 8)) lets other users in; run chmod 700 \(directory)")
    case .symbolicLink:
      throw StoreError.insecureDirectory(
        path: directory, reason: "it is a symbolic link; give the store a real directory")
    case .failed(let operation, let code):
      throw StoreError.io(path: directory, operation: operation, errno: code)
    }
  }

  func lock(_ path: String, exclusive: Bool, wait: Bool) async throws -> FileLock {
    do {
      return try await FileLock.acquire(
        path, exclusive: exclusive, timeout: wait ? options.lockTimeout : nil)
    } catch FileLock.Failure.busy {
      throw StoreError.syncInProgress(path: base)
    } catch FileLock.Failure.timedOut {
      throw StoreError.lockTimedOut(path: path)
    } catch FileLock.Failure.io(let operation, let code) {
      throw StoreError.io(path: path, operation: operation, errno: code)
    }
  }
}
