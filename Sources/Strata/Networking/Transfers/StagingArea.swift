import Foundation
import StrataConcurrency

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where a multipart body waits while it is sent (``NetworkOptions/stagingDirectory``): a
/// directory of the user's, created 0700, never a shared temporary one — the body holds every
/// field (a `client_secret` too) and the files' bytes. Each file is
/// `multipart-<pid>-<random>`, 0600, removed when the call ends; what a killed process left is
/// removed by the first service of a later process (its process is gone, or it is older than
/// a day).
struct StagingArea: Sendable {
  let directory: String

  /// A staged file left this long is removed even if its process number is in use again.
  static let leftoverAge: TimeInterval = 86_400

  /// Writes `form` into a new staging file.
  /// - Throws: ``FileError`` when the directory or the file cannot be made; `CocoaError` for
  ///   a file of the form that cannot be read.
  func stage(_ form: MultipartForm) throws -> StreamedBody {
    if let refused = FileError.directory(
      directory, PrivateFile.checkDirectory(directory, create: true, ownerOnly: true))
    {
      throw refused
    }
    let path = directory + "/multipart-\(getpid())-\(UUID().uuidString)"
    guard let fd = try PrivateFile.create(path) else {
      throw FileError.io(path: path, operation: "create", errno: EEXIST)
    }
    do {
      let length = try form.stream(into: FileHandle(fileDescriptor: fd))  // closed by it
      return StreamedBody(path: path, length: length, temporary: true)
    } catch {
      unlink(path)
      throw error
    }
  }

  /// Directories already swept by this process.
  private static let swept = Lock<Set<String>>([])

  /// Removes what processes that are gone left (once per process and directory).
  func sweepLeftovers(now: Date = Date()) {
    guard Self.swept.withLock({ $0.insert(directory).inserted }) else { return }
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      return
    }
    for name in names where name.hasPrefix("multipart-") {
      let path = directory + "/" + name
      let owner = name.split(separator: "-").dropFirst().first.flatMap { pid_t($0) }
      // `attributesOfItem` does not follow a link: a planted one is judged, and removed, itself.
      guard
        let changed = try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]
          as? Date
      else {
        continue
      }
      let age = now.timeIntervalSince(changed)
      let gone = owner.map { $0 != getpid() && kill($0, 0) != 0 && errno == ESRCH } ?? true
      if gone || age > Self.leftoverAge { unlink(path) }
    }
  }
}
