import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Which answer files the disk tier of ``HTTPCache`` keeps, the disk each takes (whole blocks:
/// what the budget counts) and the order they were last used in — shared by every process
/// using the directory, so that no lookup lists the directory and "least recently used" means
/// used by any of them.
///
/// The file `index` is a journal: a header line, then one line per event, `+ <file> <bytes>`
/// (kept), `= <file>` (used) or `- <file>` (removed), appended under an exclusive `flock` on
/// `index.lock` held for a few system calls, never across a suspension. Replayed in order it
/// gives the files from least to most recently used. A process keeps a replica and reads only
/// what was appended since it last looked; a lookup that finds its answer on disk appends `=`
/// without reading the index at all.
///
/// When the journal has twice as many lines as files (plus slack) it is rewritten in the same
/// order and renamed over the old one: files the directory holds that the index missed (a
/// record lost to a full disk, a killed process) are adopted as least recently used, files it
/// names that are gone are dropped. A missing or damaged index is rebuilt that way from the
/// directory — the only time the directory is listed with sizes. A line that does not parse (a
/// torn write) is skipped, and a name that is not an entry file's is never acted on.
struct HTTPCacheIndex {
  enum Event {
    case kept(String, bytes: Int)
    case used(String)
    case removed(String)
  }

  let files: HTTPCacheFiles
  /// The replica: entry files by name with their disk use, least recently used last.
  private(set) var entries = RecencyList<Void>()
  /// How far into the current index file the replica has read, and which file that is (a
  /// rewrite replaces it).
  private var offset = 0
  private var identity: FileIdentity?
  private var lines = 0

  private struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64

    /// A device number as 64 bits, by bit pattern: `dev_t` is a signed Int32 on Darwin (a
    /// negative one would trap in `UInt64(_:)`) and a UInt64 on Linux.
    static func device(_ number: dev_t) -> UInt64 {
      UInt64(truncatingIfNeeded: Int64(truncatingIfNeeded: number))
    }
  }

  private static let header = Array("strata-http-index 1\n".utf8)
  /// A leftover temporary file older than this is a killed writer's, not one in progress.
  private static let leftoverAge: TimeInterval = 600

  init(files: HTTPCacheFiles) { self.files = files }

  private var path: String { files.directory + "/index" }

  /// Reads what other processes appended since the last look (rebuilding a missing or
  /// damaged index); false when the index could not be locked, so the replica may be behind.
  @discardableResult
  mutating func refresh() -> Bool {
    Self.locked(files.directory) { catchUp() } ?? false
  }

  /// Records `events` after catching up, on the replica and in the journal; with `keep`, first
  /// the least recently used files are removed until the replica is within `budget` (never the
  /// one just kept, unless it alone is over).
  /// - Returns: The files removed for the budget.
  @discardableResult
  mutating func record(_ events: [Event], budget: Int = .max) -> [String] {
    Self.locked(files.directory) { () -> [String] in
      _ = catchUp()
      var evicted: [String] = []
      for event in events {
        if case .kept(let name, let bytes) = event {
          evicted += entries.put(name, (), size: bytes, budget: budget)
        } else {
          apply(event)
        }
      }
      for name in evicted { unlink(files.directory + "/" + name) }
      if let end = Self.append(events + evicted.map(Event.removed), to: path) {
        (offset, lines) = (end, lines + events.count + evicted.count)
      }
      return evicted
    } ?? []
  }

  /// Appends `events` without reading the index: a lookup in a process that has not needed the
  /// replica. Without an index there is nothing to add to (the next reader rebuilds it).
  static func record(_ events: [Event], in files: HTTPCacheFiles) {
    _ = locked(files.directory) { append(events, to: files.directory + "/index") }
  }

  /// Rewrites the index from the replica and what the directory holds (see the type's
  /// documentation); with `fromScratch`, from the directory alone, oldest change first.
  mutating func rewrite(fromScratch: Bool) {
    _ = Self.locked(files.directory) { compact(fromScratch: fromScratch) }
  }

  private mutating func catchUp() -> Bool {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      return compact(fromScratch: true)
    }
    let found = FileIdentity(device: FileIdentity.device(info.st_dev), inode: UInt64(info.st_ino))
    let size = Int(clamping: info.st_size)
    if found != identity || size < offset {
      (entries, offset, lines, identity) = (RecencyList(), 0, 0, found)
    }
    guard size > offset else { return true }
    guard let tail = Self.tail(of: path, from: offset) else { return false }
    var start = tail.startIndex
    if offset == 0 {
      guard tail.starts(with: Self.header) else { return compact(fromScratch: true) }
      start += Self.header.count
      entries.reserveCapacity(tail.count / 32)  // a line is about 30 bytes
      // Once per process that reads the index (its first store, removal or count).
      files.removeLeftovers(olderThan: Self.leftoverAge)
    }
    // Only whole lines: a writer's line may be half there (it holds the lock; this may not).
    guard let end = tail.lastIndex(of: UInt8(ascii: "\n")), end >= start else { return true }
    for line in tail[start...end].split(separator: UInt8(ascii: "\n")) {
      if let event = Self.event(line) { apply(event) }
      lines += 1
    }
    offset += end + 1 - tail.startIndex
    return lines > 2 * entries.count + 1_000 ? compact(fromScratch: false) : true
  }

  private mutating func apply(_ event: Event) {
    switch event {
    case .kept(let name, let bytes): _ = entries.put(name, (), size: bytes, budget: .max)
    case .used(let name): _ = entries.use(name)
    case .removed(let name): entries.remove(name)
    }
  }

  private mutating func compact(fromScratch: Bool) -> Bool {
    let names = files.contents()
    var onDisk = Set<String>()
    for name in names {
      if HTTPCacheFiles.isEntryName(name) {
        onDisk.insert(name)
      } else if name.contains(".tmp-"),
        HTTPCacheFiles.writerIsGone(name)
          || (files.diskUse(of: name)?.modified.timeIntervalSinceNow ?? 0) < -Self.leftoverAge
      {
        unlink(files.directory + "/" + name)  // an older build's write, left half done
      }
    }
    files.removeLeftovers(olderThan: Self.leftoverAge)
    let known = fromScratch ? [] : entries.oldestFirst.filter { onDisk.contains($0.key) }
    let knownNames = Set(known.map(\.key))
    let adopted = onDisk.subtracting(knownNames).compactMap { name in
      files.diskUse(of: name).map { (key: name, size: $0.bytes, modified: $0.modified) }
    }.sorted { $0.modified < $1.modified }.map { (key: $0.key, size: $0.size) }
    var bytes = Self.header
    var rebuilt = RecencyList<Void>()
    for (name, size) in adopted + known {
      bytes += Array("+ \(name) \(size)\n".utf8)
      _ = rebuilt.put(name, (), size: size, budget: .max)
    }
    guard PrivateFile.replace(path, with: bytes) == nil else {
      return false
    }
    var info = stat()
    guard lstat(path, &info) == 0 else { return false }
    identity = FileIdentity(device: FileIdentity.device(info.st_dev), inode: UInt64(info.st_ino))
    (entries, offset, lines) = (rebuilt, bytes.count, rebuilt.count)
    return true
  }

  /// One journal line (without its newline) as an event; nil for anything else. Bytes, not
  /// `String` work: a first read of 100,000 entries parses 100,000 lines.
  private static func event(_ line: ArraySlice<UInt8>) -> Event? {
    let space = UInt8(ascii: " ")
    guard line.count > 2, line[line.startIndex + 1] == space, let kind = line.first else {
      return nil
    }
    var name = line.dropFirst(2)
    var bytes = 0
    if kind == UInt8(ascii: "+") {
      guard let split = name.lastIndex(of: space) else { return nil }
      let digits = name[(split + 1)...]
      // At most 13 digits, summed in 64 bits, so no overflow where `Int` is 32 bits either;
      // the bound (and whether `Int` holds it) is checked after.
      guard (1...13).contains(digits.count), digits.allSatisfy({ (48...57).contains($0) }),
        let size = Int(exactly: digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - 48) })
      else {
        return nil
      }
      (bytes, name) = (size, name[..<split])
    }
    let text = String(decoding: name, as: UTF8.self)
    guard bytes <= ByteLimits.oneTiB, HTTPCacheFiles.isEntryName(text) else { return nil }
    switch kind {
    case UInt8(ascii: "+"): return .kept(text, bytes: bytes)
    case UInt8(ascii: "="): return .used(text)
    case UInt8(ascii: "-"): return .removed(text)
    default: return nil
    }
  }

  private static func line(_ event: Event) -> String {
    switch event {
    case .kept(let name, let bytes): "+ \(name) \(bytes)\n"
    case .used(let name): "= \(name)\n"
    case .removed(let name): "- \(name)\n"
    }
  }

  /// Appends the events' lines in one write (the lock held); a write that fails part-way is
  /// cut back, so no torn line is left for the next one to glue onto.
  /// - Returns: The index's size after it, nil when nothing was appended.
  private static func append(_ events: [Event], to path: String) -> Int? {
    guard !events.isEmpty else { return nil }
    guard let fd = try? PrivateFile.open(path, O_RDWR | O_APPEND) else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return nil }
    var text = events.map(line).joined()
    // A killed writer's torn line would swallow this one's first line: end it first.
    var last: UInt8 = 0
    if info.st_size > 0, pread(fd, &last, 1, info.st_size - 1) == 1, last != UInt8(ascii: "\n") {
      text = "\n" + text
    }
    guard FileDescriptor.writeAll(fd, Array(text.utf8)) else {
      _ = ftruncate(fd, info.st_size)
      return nil
    }
    return fstat(fd, &info) == 0 ? Int(clamping: info.st_size) : nil
  }

  private static func tail(of path: String, from offset: Int) -> [UInt8]? {
    guard let fd = try? PrivateFile.open(path, O_RDONLY) else { return nil }
    defer { close(fd) }
    guard lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else { return nil }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { return nil }
      if count == 0 { return bytes }
      bytes += chunk[..<count]
    }
  }

  /// Runs `body` holding the directory's index lock; nil when it could not be had within half a
  /// second (its holders keep it for a few system calls; a process stopped while holding it
  /// costs the others their records, never their answers).
  private static func locked<T>(_ directory: String, _ body: () -> T) -> T? {
    guard let fd = try? PrivateFile.open(directory + "/index.lock", O_RDWR, creating: .ifMissing)
    else {
      return nil
    }
    defer { close(fd) }
    var waited = 0
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EINTR || (errno == EWOULDBLOCK && waited < 500) else { return nil }
      waited += 1
      usleep(1_000)
    }
    return body()
  }
}
