import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Credentials in a JSON file readable by the owner only.
///
/// - Written atomically: a new file is created with mode 0600, written, synced and renamed over
///   the old one, so a crash never leaves a half-written file in place.
/// - Read only if no other user can read it (mode `& 0o077 == 0`); otherwise ``load()`` throws.
/// - A corrupt file (a torn write from another tool, or garbage) reads as signed out.
/// - Default location: `$XDG_CONFIG_HOME/<app>/credentials.json`, else
///   `~/.config/<app>/credentials.json`; the directory is created with mode 0700.
public final class FileTokenStore: TokenStore {
  /// Why the store refused to work.
  public enum Failure: Error, Equatable, CustomStringConvertible {
    /// The file can be read by group or others; it is not trusted.
    case insecurePermissions(path: String, mode: UInt16)
    /// A filesystem call failed.
    case io(path: String, operation: String, errno: Int32)

    /// A sentence saying what to do.
    public var description: String {
      switch self {
      case .insecurePermissions(let path, let mode):
        "refusing to read \(path): mode \(String(mode, radix: 8)) lets other users read it; run chmod 600 \(path)"
      case .io(let path, let operation, let code):
        "\(operation) \(path) failed: \(String(cString: strerror(code)))"
      }
    }
  }

  /// The credentials file.
  public let path: String

  /// Creates a store at an explicit path.
  /// - Parameter path: The file path.
  public init(path: String) { self.path = path }

  /// Creates a store at the XDG location for an application.
  /// - Parameters:
  ///   - app: The application name (a directory under the config home).
  ///   - environment: The environment (for `XDG_CONFIG_HOME` and `HOME`).
  public convenience init(
    app: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.init(path: Self.defaultDirectory(app: app, environment: environment) + "/credentials.json")
  }

  /// `$XDG_CONFIG_HOME/<app>` or `~/.config/<app>`.
  /// - Parameters:
  ///   - app: The application name.
  ///   - environment: The environment.
  /// - Returns: The directory path.
  public static func defaultDirectory(app: String, environment: [String: String]) -> String {
    if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/" + app }
    let home = environment["HOME"] ?? NSHomeDirectory()
    return home + "/.config/" + app
  }

  /// Reads the credentials.
  /// - Returns: The credentials, or nil when there is no file or it is corrupt.
  /// - Throws: ``Failure/insecurePermissions(path:mode:)`` for a file others can read.
  public func load() throws -> Credentials? {
    var info = stat()
    guard stat(path, &info) == 0 else {
      if errno == ENOENT { return nil }
      throw Failure.io(path: path, operation: "stat", errno: errno)
    }
    let mode = UInt16(info.st_mode & 0o777)
    guard mode & 0o077 == 0 else { throw Failure.insecurePermissions(path: path, mode: mode) }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Failure.io(path: path, operation: "read", errno: errno)
    }
    do {
      return try JSONDecoder().decode(Credentials.self, from: data)
    } catch {
      Log.auth.warning(
        "credentials file \(path) is unreadable (\(data.count) bytes); treating as signed out")
      return nil
    }
  }

  /// Writes the credentials atomically with mode 0600.
  /// - Parameter credentials: The credentials.
  /// - Throws: ``Failure/io(path:operation:errno:)``.
  public func save(_ credentials: Credentials) throws {
    let directory = (path as NSString).deletingLastPathComponent
    try createDirectory(directory)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = try encoder.encode(credentials)
    let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard fd >= 0 else { throw Failure.io(path: temporary, operation: "create", errno: errno) }
    let ok = FileDescriptor.writeAll(fd, data) && fsync(fd) == 0
    let code = errno
    close(fd)
    guard ok, rename(temporary, path) == 0 else {
      let failure = ok ? errno : code
      unlink(temporary)
      throw Failure.io(path: path, operation: ok ? "rename" : "write", errno: failure)
    }
  }

  /// Deletes the file.
  /// - Throws: ``Failure/io(path:operation:errno:)`` unless it did not exist.
  public func clear() throws {
    guard unlink(path) == 0 || errno == ENOENT else {
      throw Failure.io(path: path, operation: "delete", errno: errno)
    }
  }

  private func createDirectory(_ directory: String) throws {
    var info = stat()
    if stat(directory, &info) == 0 { return }
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
      )
    } catch {
      throw Failure.io(path: directory, operation: "mkdir", errno: errno)
    }
  }
}
