import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One settings file: a JSON object of names to text, 0600 in a 0700 directory, read and
/// replaced under an exclusive `flock` on `<path>.lock`, so two processes writing at once each
/// keep the other's keys. A write is a whole new file renamed into place: a crash leaves the
/// old file or the new one. A file that is not such an object (damage, a hand edit gone wrong,
/// one over 64 KiB) is moved aside to `<path>.damaged-<ms>` and reads as empty: the defaults
/// apply, and a warning names it.
struct PreferencesFile: Sendable {
  let path: String
  static let largest = 64 * 1024

  /// `change` applied to the file's values under the exclusive lock (nothing written when
  /// they are left as they were).
  func update(_ change: (inout [String: String]) -> Void) async throws {
    let lock = try await lock(exclusive: true)
    defer { lock.release() }
    var values = try read()
    let before = values
    change(&values)
    guard values != before else { return }
    let json = try JSONSerialization.data(withJSONObject: values, options: [.sortedKeys])
    if let failure = PrivateFile.replace(path, with: json) {
      throw FileError.io(path: path, operation: failure.operation, errno: failure.errno)
    }
  }

  /// The values as they stand, under a shared lock: readers never wait for one another.
  /// Shared, not none: a writer cannot replace the file while a reader that found it damaged
  /// moves it aside, so a good file is never moved aside in its place.
  func values() async throws -> [String: String] {
    let lock = try await lock(exclusive: false)
    defer { lock.release() }
    return try read()
  }

  /// The file's lock, its directory checked (0700, the user's) or made first.
  private func lock(exclusive: Bool) async throws -> FileLock {
    let directory = (path as NSString).deletingLastPathComponent
    if let refused = FileError.directory(
      directory, PrivateFile.checkDirectory(directory, create: true, ownerOnly: true))
    {
      throw refused
    }
    return try await FileLock.acquire(path + ".lock", exclusive: exclusive, timeout: .seconds(30))
  }

  /// The values on disk; a damaged file is set aside and reads as none.
  /// - Throws: ``FileError`` for a link, a directory or another user's file at the path:
  ///   nothing is read from it or written through it.
  private func read() throws(FileError) -> [String: String] {
    let size = PrivateFile.size(of: path)
    do {
      guard let bytes = try PrivateFile.read(path, limit: Self.largest) else { return [:] }
      if let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: String] {
        return object
      }
    } catch .tooLarge {
      // damaged: set aside below
    }
    let aside = path + ".damaged-\(Int(Date().timeIntervalSince1970 * 1000))"
    rename(path, aside)
    Log(category: "preferences").warning(
      "settings file \(path) is damaged (\(size) bytes): moved to \(aside); defaults apply")
    return [:]
  }
}
