import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The store's compacted state, in `<base>.snapshot`: a header line
/// `strata-store <format version> <generation> <changes> <values> [<refreshed> [<cursor>]]`
/// (`-` for no refresh; the cursor in base64), then one line per queued
/// change (an ``OutboxEntry``, in queue order) and one per value (its key beside the record's
/// fields) in the journal's line format, so each line checks itself, the lines decode on every
/// core, and damage costs one line.
/// The generation names the journal that continues it (`<base>.log-<generation>`), so a
/// process that reads a new generation in the header knows another one compacted the store.
/// Formats 2 and 3 (one JSON document; 3 with a CRC-32 of it in the header) are still read.
struct StoreSnapshot<Value: Codable & Sendable>: Codable {
  static var formatVersion: Int { 4 }

  var generation: Int
  var records: RecordTable<Value>
  var outbox: [OutboxEntry]
  /// When the server last listed every value (``StoreState/refreshedAt``): format 4's header
  /// ends with it, in milliseconds since 1970, when there is one.
  var refreshedAt: Date? = nil
  /// Where the next listing of changes starts (``StoreState/cursor``): format 4's header ends
  /// with it, in base64, when there is one.
  var cursor: String? = nil

  /// The most bytes a header line takes: a cursor is at most ``maxCursor`` bytes.
  static var maxHeader: Int { 4_096 }
  /// The longest cursor a snapshot keeps, in UTF-8 bytes (its base64 and the other words fit
  /// in ``maxHeader``).
  static var maxCursor: Int { 2_048 }

  /// What reading a snapshot found.
  enum Read {
    case none
    case intact(StoreSnapshot)
    /// A checksum failed or the body does not decode: `readable` is what is intact (nil when
    /// nothing is), `generation` the header's when it can be read, `lines` each line that
    /// failed its checksum (not in `readable`).
    case damaged(readable: StoreSnapshot?, generation: Int?, bytes: [UInt8], lines: [[UInt8]])
  }

  private struct Header {
    var version: Int
    var generation: Int
    /// Format 3: the CRC-32 of the body.
    var checksum: UInt32?
    /// Format 4: how many lines of changes, then of values, the body has.
    var counts: (changes: Int, values: Int)?
    /// Format 4: when the server last listed every value, if it did.
    var refreshedAt: Date?
    /// Format 4: where the next listing of changes starts, if one was read.
    var cursor: String?
    var bodyStart: Int
  }

  /// The generation in the header at `path`: 0 when there is no snapshot, nil when its header
  /// cannot be read (damage, which ``read(at:maxSize:)`` reports).
  static func generation(at path: String) throws -> Int? {
    guard let fd = try JournalFile.openRegularFile(path, O_RDONLY) else { return 0 }
    defer { close(fd) }
    var header = [UInt8](repeating: 0, count: maxHeader)
    let count = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    return try parseHeader(header[..<count], path: path)?.generation
  }

  /// The snapshot at `path`.
  /// - Throws: ``FileError/tooLarge(path:size:limit:)`` over `maxSize`,
  ///   ``FileError/unsupportedVersion(path:found:expected:)`` for a format this build does
  ///   not know (a newer one: nothing is damaged, so nothing is set aside), and
  ///   ``FileError/unreadable(path:reason:)`` for a line whose checksum holds but which does
  ///   not decode (a newer build's change, not damage).
  /// - Parameter reserving: Room to leave in the tables for that many changes to come.
  /// - Parameter piece: How many bytes of lines to read and decode at a time.
  static func read(at path: String, maxSize: Int, reserving: Int = 0, piece: Int = 4 << 20)
    throws -> Read
  {
    guard let fd = try JournalFile.openRegularFile(path, O_RDONLY) else { return .none }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw FileError.io(path: path, operation: "stat", errno: errno)
    }
    let size = Int(clamping: info.st_size)
    guard size <= maxSize else { throw FileError.tooLarge(path: path, size: size, limit: maxSize) }
    let head = try JournalFile.read(fd, at: 0, count: min(size, maxHeader), path: path)
    guard let header = try parseHeader(head, path: path) else {
      return .damaged(
        readable: nil, generation: nil,
        bytes: try JournalFile.read(fd, at: 0, count: size, path: path), lines: [])
    }
    if header.version == formatVersion {
      return try readLines(
        fd, size: size, header: header, path: path, reserving: reserving, piece: piece)
    }
    let data = try JournalFile.read(fd, at: 0, count: size, path: path)
    let body = data[(data.startIndex + header.bodyStart)...]
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .millisecondsSince1970
    var snapshot = try? decoder.decode(StoreSnapshot.self, from: Data(body))
    snapshot?.generation = header.generation
    // One checksum covers the whole document: when it fails, nothing in it is trusted.
    guard let snapshot, header.checksum.map({ $0 == CRC32.checksum(body) }) ?? true else {
      return .damaged(readable: nil, generation: header.generation, bytes: data, lines: [])
    }
    return .intact(snapshot)
  }

  /// A format-4 snapshot, read a few megabytes at a time (a reopen never holds the whole file
  /// beside what it decodes): every line checked and decoded. A line that fails its checksum is
  /// never used, as in the journal — a flipped bit may have changed what a change says, and a
  /// change is sent as it reads — and the whole file is set aside and reported.
  private static func readLines(
    _ fd: Int32, size: Int, header: Header, path: String, reserving: Int, piece: Int
  ) throws -> Read {
    let changes = header.counts?.changes ?? 0
    var kept = Kept(
      path: path, reserving: (changes + reserving, (header.counts?.values ?? 0) + reserving))
    var (offset, linesRead, intact) = (header.bodyStart, 0, true)
    var piece = max(1, piece)
    while offset < size {
      let bytes = try JournalFile.read(fd, at: offset, count: min(piece, size - offset), path: path)
      let scan = JournalLines.scan(bytes, 0..<bytes.count)
      if scan.lines.isEmpty {
        guard offset + bytes.count < size else { break }  // the last line has no newline
        piece *= 2  // one line longer than the piece
        continue
      }
      let split = max(0, min(scan.lines.count, changes - linesRead))
      intact = try kept.decode(bytes, scan.lines, changesFirst: split) && intact
      (offset, linesRead) = (offset + scan.consumed, linesRead + scan.lines.count)
    }
    if offset != size || header.counts.map({ $0.changes + $0.values }) != linesRead {
      intact = false
    }
    let snapshot = StoreSnapshot(
      generation: header.generation, records: kept.records, outbox: kept.outbox,
      refreshedAt: header.refreshedAt, cursor: header.cursor)
    guard intact else {
      return .damaged(
        readable: snapshot, generation: header.generation,
        bytes: try JournalFile.read(fd, at: 0, count: size, path: path), lines: kept.damaged)
    }
    return .intact(snapshot)
  }

  /// What a format-4 snapshot's lines gave so far, and the damaged lines set aside.
  private struct Kept {
    var outbox: [OutboxEntry] = []
    var records = RecordTable<Value>()
    var damaged: [[UInt8]] = []
    let path: String

    init(path: String, reserving: (changes: Int, values: Int)) {
      self.path = path
      outbox.reserveCapacity(reserving.changes)
      records.reserveCapacity(reserving.values)
    }

    /// Decodes one piece's lines, the first `split` changes and the rest values; false when
    /// one failed its checksum (kept aside in `damaged`, never used).
    mutating func decode(_ bytes: [UInt8], _ lines: [Range<Int>], changesFirst split: Int)
      throws -> Bool
    {
      var intact = true
      let path = path
      func value<T>(_ decoded: JournalLines.Decoded<T>, _ line: Range<Int>) throws -> T? {
        switch decoded {
        case .value(let value): return value
        case .damaged:
          intact = false
          damaged.append(Array(bytes[line]))
          return nil
        case .undecodable(let error):
          throw FileError.unreadable(path: path, reason: String(describing: error))
        }
      }
      let (changeLines, valueLines) = (Array(lines[..<split]), Array(lines[split...]))
      let entries = JournalLines.decode(OutboxEntry.self, changeLines, in: bytes)
      for (line, decoded) in zip(changeLines, entries) {
        if let entry = try value(decoded, line) { outbox.append(entry) }
      }
      let values = JournalLines.decode(KeyedRecord.self, valueLines, in: bytes)
      for (line, decoded) in zip(valueLines, values) {
        if let kept = try value(decoded, line) { records[kept.key] = kept.record }
      }
      return intact
    }
  }

  /// The header's version, generation, checks (format 3's checksum, format 4's line counts)
  /// and where the body starts; nil when it is not a store header at all.
  private static func parseHeader(_ bytes: some Collection<UInt8>, path: String) throws
    -> Header?
  {
    guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
    let words = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
    guard words.count >= 3, words[0] == "strata-store", let version = Int(words[1]),
      let generation = Int(words[2]), generation >= 0
    else { return nil }
    guard (2...formatVersion).contains(version) else {
      throw FileError.unsupportedVersion(path: path, found: version, expected: formatVersion)
    }
    var header = Header(
      version: version, generation: generation, checksum: nil, counts: nil,
      bodyStart: bytes.distance(from: bytes.startIndex, to: newline) + 1)
    switch version {
    case 3:
      guard words.count == 4, let value = UInt32(words[3], radix: 16) else { return nil }
      header.checksum = value
    case 4:
      guard (5...7).contains(words.count), let changes = Int(words[3]),
        let values = Int(words[4]), changes >= 0, values >= 0
      else { return nil }
      header.counts = (changes, values)
      if words.count >= 6, words[5] != "-" {
        guard let milliseconds = Int64(words[5]), milliseconds >= 0 else { return nil }
        header.refreshedAt = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
      }
      if words.count == 7 {
        guard let data = Data(base64Encoded: String(words[6])),
          let cursor = String(data: data, encoding: .utf8)
        else { return nil }
        header.cursor = cursor
      }
    default:
      break
    }
    return header
  }
}
