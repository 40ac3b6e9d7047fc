import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension SandboxServer {
  /// Starts a sandbox that is the same server from one run to the next on this machine: the
  /// same port (while it is free) and the same token-signing key, kept in the file at `path`
  /// (mode 0600; its folder is made 0700 when missing). A session one command signs in is then
  /// the next command's: the origin its tokens are bound to and the key they are checked with
  /// stay the same. The first run picks a free port and keeps it.
  /// - Parameter path: The identity's file (an app's data directory is the place for it).
  /// - Parameter configuration: Everything else about the server (its port and key are the
  ///   identity's).
  /// - Returns: The running server, and whether it has the identity's port — false when that
  ///   port was taken (another run's sandbox, say) and a free one serves this run alone.
  /// - Throws: ``StartError`` when no port at all could be had.
  public static func startWithMachineIdentity(
    at path: String, configuration: Configuration = Configuration()
  ) throws -> (server: SandboxServer, keepsIdentity: Bool) {
    let known = MachineIdentity.read(path)
    let identity =
      known ?? MachineIdentity(port: 0, key: (0..<32).map { _ in UInt8.random(in: .min ... .max) })
    var configuration = configuration
    (configuration.port, configuration.signingKey) = (identity.port, identity.key)
    let server = SandboxServer(configuration: configuration)
    do {
      try server.start()
    } catch {
      guard identity.port != 0 else { throw error }
      configuration.port = 0
      let elsewhere = SandboxServer(configuration: configuration)
      try elsewhere.start()
      return (elsewhere, false)
    }
    if known == nil {
      // The first run's choice; a directory that cannot be written only costs the next run
      // this session.
      MachineIdentity.makeDirectory((path as NSString).deletingLastPathComponent)
      MachineIdentity(port: UInt16(clamping: server.port), key: identity.key).write(path)
    }
    return (server, true)
  }
}

/// The port and signing key a machine's embedded sandbox keeps between runs.
private struct MachineIdentity {
  var port: UInt16
  var key: [UInt8]

  private struct Stored: Codable {
    var port: Int
    var key: String
  }

  init(port: UInt16, key: [UInt8]) { (self.port, self.key) = (port, key) }

  /// The identity in `path`, or nil when there is none or it is not one (then a new one is
  /// made, and the sessions the old one signed no longer verify).
  static func read(_ path: String) -> MachineIdentity? {
    guard let data = privateContents(path), data.count < 4_096,
      let stored = try? JSONDecoder().decode(Stored.self, from: data),
      (1...65_535).contains(stored.port), stored.key.utf8.count == 64
    else { return nil }
    var key: [UInt8] = []
    var digits = stored.key.makeIterator()
    while let high = digits.next(), let low = digits.next() {
      guard let byte = UInt8(String([high, low]), radix: 16) else { return nil }
      key.append(byte)
    }
    return MachineIdentity(port: UInt16(stored.port), key: key)
  }

  /// Written as the library writes its own files (the sandbox does not link it): a new file
  /// made 0600 from the start (`O_EXCL`, never through a link), renamed into place — the key
  /// signs sessions, and Foundation's `createFile` would leave it readable until its `chmod`.
  func write(_ path: String) {
    let stored = Stored(port: Int(port), key: key.map { String(format: "%02x", $0) }.joined())
    let temporary = path + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
    guard let bytes = try? JSONEncoder().encode(stored) else { return }
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return }
    let file = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    let written = (try? file.write(contentsOf: bytes)) != nil
    try? file.close()
    if !written || rename(temporary, path) != 0 { unlink(temporary) }
  }

  /// The file at `path` when it is the user's own regular file (never through a link).
  private static func privateContents(_ path: String) -> Data? {
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid()
    else { return nil }
    return try? handle.read(upToCount: 4_096)
  }

  /// `directory` and its missing parents, each made 0700 in one step.
  static func makeDirectory(_ directory: String) {
    var path = directory.hasPrefix("/") ? "" : "."
    for component in directory.split(separator: "/") {
      path += "/" + component
      _ = mkdir(path, 0o700)
    }
  }
}
