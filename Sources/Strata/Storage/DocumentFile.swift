import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One JSON document in one file, saved so that a crash never leaves it half-written: a new
/// file is written beside it, synced and renamed over it. The file says which format version
/// wrote it, and is bounded in size both ways (a larger document is not saved, a larger file
/// is not read).
///
/// ```json
/// {"version": 1, "document": { … }}
/// ```
public struct DocumentFile<Document: Codable & Sendable>: Sendable {
  /// Why a document could not be loaded or saved.
  public enum Failure: Error, Equatable, CustomStringConvertible {
    /// The file was written by another format version.
    case unsupportedVersion(path: String, found: Int, expected: Int)
    /// The file or the document is larger than the limit.
    case tooLarge(path: String, size: Int, limit: Int)
    /// The file is not a document of this kind (the decoder's explanation).
    case unreadable(path: String, reason: String)
    /// A filesystem call failed.
    case io(path: String, operation: String, errno: Int32)

    /// A sentence saying what is wrong and what to do.
    public var description: String {
      switch self {
      case .unsupportedVersion(let path, let found, let expected):
        "\(path) was written by format version \(found); this build reads version \(expected)"
      case .tooLarge(let path, let size, let limit):
        "\(path): \(size) bytes is over the \(limit)-byte limit"
      case .unreadable(let path, let reason):
        "\(path) is not readable: \(UntrustedText.sanitize(reason, limit: 160))"
      case .io(let path, let operation, let code):
        "\(path): \(operation) failed: \(String(cString: strerror(code)))"
      }
    }
  }

  private struct Envelope: Codable {
    let version: Int
    let document: Document
  }

  private struct VersionOnly: Decodable { let version: Int }

  /// The file.
  public let path: String
  /// The format version written and accepted.
  public let version: Int
  /// The largest file read or written, in bytes.
  public let maxSize: Int

  /// A document file at `path` (its directory is created, mode 0700, on the first save).
  public init(path: String, version: Int, maxSize: Int = 16 << 20) {
    self.path = path
    self.version = version
    self.maxSize = maxSize
  }

  /// The document, or nil when there is no file yet.
  /// - Throws: ``Failure``.
  public func load() throws -> Document? {
    var info = stat()
    guard stat(path, &info) == 0 else {
      if errno == ENOENT { return nil }
      throw Failure.io(path: path, operation: "stat", errno: errno)
    }
    guard Int(info.st_size) <= maxSize else {
      throw Failure.tooLarge(path: path, size: Int(info.st_size), limit: maxSize)
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw Failure.io(path: path, operation: "read", errno: errno)
    }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .millisecondsSince1970
    guard let found = try? decoder.decode(VersionOnly.self, from: data) else {
      throw Failure.unreadable(path: path, reason: "no format version")
    }
    guard found.version == version else {
      throw Failure.unsupportedVersion(path: path, found: found.version, expected: version)
    }
    do {
      return try decoder.decode(Envelope.self, from: data).document
    } catch {
      throw Failure.unreadable(path: path, reason: String(describing: error))
    }
  }

  /// Replaces the file with `document`, atomically (mode 0600).
  /// - Throws: ``Failure``.
  public func save(_ document: Document) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .millisecondsSince1970
    let data: Data
    do {
      data = try encoder.encode(Envelope(version: version, document: document))
    } catch {
      throw Failure.unreadable(path: path, reason: "not encodable: \(error)")
    }
    guard data.count <= maxSize else {
      throw Failure.tooLarge(path: path, size: data.count, limit: maxSize)
    }
    let directory = (path as NSString).deletingLastPathComponent
    if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory),
      let code = FileDescriptor.makePrivateDirectory(directory)
    {
      throw Failure.io(path: directory, operation: "mkdir", errno: code)
    }
    if let failure = FileDescriptor.replaceAtomically(path, with: data, mode: 0o600) {
      throw Failure.io(path: path, operation: failure.operation, errno: failure.errno)
    }
  }
}
