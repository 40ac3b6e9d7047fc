import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The disk tier of ``HTTPCache``: one file per answer, `<hash of the key>.entry`, in an
/// owner-only directory. A file is a header line `strata-http-cache 1 <CRC-32 of the rest>`,
/// a JSON line of what the answer was for (its key, status, headers, Vary values and times),
/// then the body. It is written in `tmp/` and renamed into place, so a reader — or a process
/// killed mid-write — sees the old file, the new one, or none (what a killed writer leaves in
/// `tmp/` is removed by the next process that reads the index); a file that fails its checksum
/// or names another key is a miss (and removed), never a crash. Files are not synced: a cache
/// may lose answers at a power cut, and then misses.
struct HTTPCacheFiles: Sendable {
  let directory: String

  private struct Metadata: Codable {
    var key: String
    var status: Int
    var headers: [String: String]
    var varied: [String: String?]
    var requestTime: Double
    var responseTime: Double
  }

  private static let magic = "strata-http-cache 1 "

  /// Creates the directory (0700) or checks it is the user's own.
  init?(directory: String) {
    guard PrivateFile.checkDirectory(directory, create: true, ownerOnly: true) == nil
    else { return nil }
    self.directory = directory
  }

  /// `key`'s file name: its 64-bit FNV-1a hash (the file itself says which key it holds),
  /// after ``prefix(for:)`` for an answer kept for an account.
  static func name(for key: String, account: String?) -> String {
    (account.map(prefix) ?? "") + String(FNV1a.hash(key), radix: 16) + ".entry"
  }

  /// What starts the names of one account's files: `u<hash of the account>-`, so they can be
  /// removed together without reading them (a shared answer's name is hex digits only).
  static func prefix(for account: String) -> String {
    accountPrefix + String(FNV1a.hash(account), radix: 16) + "-"
  }

  /// What starts every account's file names (and no shared answer's, which are hex digits).
  static let accountPrefix = "u"

  /// The largest entry read: the largest body an answer may have (``NetworkOptions``' limit
  /// goes up to 1 TiB) is never cached whole in practice; past this it is a miss.
  static let largestFile = ByteLimits.fourGiB

  /// The answer stored for `key` in file `name`, or nil: there is none, or the file was
  /// damaged or another key's, and `removed` (then it is gone).
  func read(_ key: String, name: String) -> (answer: CachedResponse?, removed: Bool) {
    let path = directory + "/" + name
    let data: Data
    do {
      guard let bytes = try PrivateFile.read(path, limit: Self.largestFile) else {
        return (nil, false)
      }
      data = Data(bytes)
    } catch {
      return (nil, unlink(path) == 0)  // a link, a directory, another user's: never read
    }
    guard let response = Self.decode(data, key: key) else { return (nil, unlink(path) == 0) }
    return (response, false)
  }

  /// Writes `response` for `key`; returns the disk the file takes (``diskUse(of:)``), nil when
  /// it could not be written (a full disk: the answer stays in memory only).
  @discardableResult
  func write(_ response: CachedResponse, key: String, name: String) -> Int? {
    let metadata = Metadata(
      key: key, status: response.status, headers: response.headers, varied: response.varied,
      requestTime: response.requestTime.timeIntervalSince1970,
      responseTime: response.responseTime.timeIntervalSince1970)
    guard var rest = try? JSONEncoder().encode(metadata) else { return nil }
    rest.append(UInt8(ascii: "\n"))
    rest.append(response.body)
    let header = Self.magic + String(format: "%08x", CRC32.checksum(rest)) + "\n"
    let bytes = Data(header.utf8) + rest
    let path = directory + "/" + name
    // Written in `tmp/`, so that what killed writers leave is found by listing that folder
    // alone, never the entries.
    let temporary =
      directory + "/tmp/" + name + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    // Written directly (Foundation's `createFile` writes a temporary file of its own, which a
    // killed writer would leave under a name no sweep knows).
    func create() -> Bool {
      guard let fd = try? PrivateFile.create(temporary) else {
        return false
      }
      defer { close(fd) }
      guard FileDescriptor.writeAll(fd, bytes) else {
        unlink(temporary)  // a full disk: nothing half written stays
        return false
      }
      return true
    }
    guard create() || (PrivateFile.makeDirectory(directory + "/tmp") == nil && create())
    else { return nil }
    guard rename(temporary, path) == 0 else {
      unlink(temporary)
      return nil
    }
    return diskUse(of: name)?.bytes ?? bytes.count
  }

  /// 32 random bytes.
  static func randomKey() -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
  }

  /// The key of the directory's `Vary` digests, `vary.key` (0600): made once, by whichever
  /// process comes first (linked into place, so two makers cannot both win); nil when it
  /// can be neither read nor made (the caller then uses a key of its own).
  func varyKey() -> [UInt8]? {
    let path = directory + "/vary.key"
    if let key = Self.readKey(path) { return key }
    let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    guard let fd = try? PrivateFile.create(temporary) else {
      return nil
    }
    let written = FileDescriptor.writeAll(fd, Self.randomKey())
    close(fd)
    guard written else {
      unlink(temporary)
      return nil
    }
    _ = link(temporary, path)  // fails when another process made it first: theirs is read
    unlink(temporary)
    return Self.readKey(path)
  }

  private static func readKey(_ path: String) -> [UInt8]? {
    guard let key = try? PrivateFile.read(path, limit: 32), key.count == 32 else { return nil }
    return key
  }

  /// `account`'s session mark: what the last sign-out of that account, in any process,
  /// wrote ("" before the first).
  func sessionMark(of account: String) -> String {
    let path = directory + "/" + Self.prefix(for: account) + "session"
    return (try? PrivateFile.read(path, limit: 256))?.map { String(decoding: $0, as: UTF8.self) }
      ?? ""
  }

  /// Writes a new session mark for `account` (a sign-out) and returns it; nil when it could not
  /// be written (other processes then miss this sign-out's line; this one still has it).
  func endSession(of account: String) -> String? {
    let mark = UUID().uuidString
    let path = directory + "/" + Self.prefix(for: account) + "session"
    return PrivateFile.replace(path, with: Array(mark.utf8)) == nil
      ? mark : nil
  }

  /// Every name in the directory, unread and unchecked (a compaction, a clear, a sign-out).
  func contents() -> [String] {
    Self.onListing?()
    return (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
  }

  /// Removes what killed writers left in `tmp/` — a file whose writer (the process its name
  /// gives) is gone, or older than `age` — listing that folder only: it holds the writes in
  /// progress, not the entries.
  func removeLeftovers(olderThan age: TimeInterval) {
    let folder = directory + "/tmp"
    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
      let path = folder + "/" + name
      if Self.writerIsGone(name) || Self.isOlder(path, than: age) { unlink(path) }
    }
  }

  /// Whether the process a temporary file's name gives (`….tmp-<pid>-<random>`) has ended.
  static func writerIsGone(_ name: String) -> Bool {
    guard let marker = name.range(of: ".tmp-", options: .backwards),
      let pid = name[marker.upperBound...].split(separator: "-").first.flatMap({ Int32($0) }),
      pid > 0
    else { return false }
    return kill(pid, 0) != 0 && errno == ESRCH
  }

  private static func isOlder(_ path: String, than age: TimeInterval) -> Bool {
    let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate]
    return (modified as? Date).map { $0.timeIntervalSinceNow < -age } ?? false
  }

  /// Tests count listings here: a lookup, a store or a count must make none.
  @TaskLocal static var onListing: (@Sendable () -> Void)?

  /// Whether `name` is an entry file's: `[u<hex>-]<hex>.entry`, as ``name(for:account:)``
  /// makes them. A name read from the index is acted on only if it is.
  static func isEntryName(_ name: some StringProtocol) -> Bool {
    guard name.hasSuffix(".entry") else { return false }
    func isHash(_ part: Substring.UTF8View) -> Bool {
      (1...16).contains(part.count)
        && part.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
    let stem = Substring(name.dropLast(6))
    let parts = stem.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
    switch parts.count {
    case 1: return isHash(parts[0])
    case 2:
      return parts[0].first == UInt8(ascii: "u") && isHash(parts[0].dropFirst()) && isHash(parts[1])
    default: return false
    }
  }

  /// The disk a file of the directory takes (its blocks, or its size when the file system
  /// reports fewer) and its last change; nil when it is not a regular file.
  func diskUse(of name: String) -> (bytes: Int, modified: Date)? {
    var info = stat()
    guard lstat(directory + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      return nil
    }
    #if canImport(Darwin)
      let modified = Double(info.st_mtimespec.tv_sec)
    #else
      let modified = Double(info.st_mtim.tv_sec)
    #endif
    // 512-byte blocks, counted in 64 bits and clamped to `Int` (32 bits on watchOS).
    let allocated = min(Int64(clamping: info.st_blocks), Int64.max / 512) * 512
    return (
      max(Int(clamping: allocated), Int(clamping: info.st_size)),
      Date(timeIntervalSince1970: modified)
    )
  }

  /// Removes the entry files whose names `matching` accepts (default: every one).
  /// - Returns: The names removed, and each file that could not be, as `path: reason`.
  @discardableResult
  func removeAll(matching: (String) -> Bool = { _ in true }) -> (
    removed: [String], failed: [String]
  ) {
    var (removed, failed): ([String], [String]) = ([], [])
    for name in contents() where Self.isEntryName(name) && matching(name) {
      let path = directory + "/" + name
      if unlink(path) == 0 || errno == ENOENT {
        removed.append(name)
      } else {
        failed.append("\(path): \(String(cString: strerror(errno)))")
      }
    }
    return (removed, failed)
  }

  private static func decode(_ data: Data, key: String) -> CachedResponse? {
    guard let newline = data.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
    let header = String(decoding: data[..<newline], as: UTF8.self)
    guard header.hasPrefix(magic),
      let checksum = UInt32(header.dropFirst(magic.count), radix: 16)
    else { return nil }
    let rest = data[(newline + 1)...]
    guard CRC32.checksum(rest) == checksum,
      let split = rest.firstIndex(of: UInt8(ascii: "\n")),
      let metadata = try? JSONDecoder().decode(Metadata.self, from: Data(rest[..<split])),
      metadata.key == key
    else { return nil }
    return CachedResponse(
      status: metadata.status, headers: metadata.headers, body: Data(rest[(split + 1)...]),
      requestTime: Date(timeIntervalSince1970: metadata.requestTime),
      responseTime: Date(timeIntervalSince1970: metadata.responseTime), varied: metadata.varied)
  }
}
