import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One change to a store, as its log records it. The same changes applied in the same order
/// always give the same state: that is why a replayed log equals the process that wrote it.
enum StoreChange<Value: Codable & Sendable>: Codable {
  case put(key: String, record: StoredRecord<Value>)
  /// A fresh page from the server: every `synced` value is replaced by `values`.
  case replaceSynced(values: [String: Value], at: Date)
  /// A change queued, with the value shown for it (both or neither: one record).
  case enqueue(entry: OutboxEntry, record: StoredRecord<Value>?)
  /// A send's outcome: the entry as it now stands and the value under its record key (the
  /// value shown under `formerKey` until then is dropped when the answer has another key).
  case settle(entry: OutboxEntry, record: StoredRecord<Value>?, formerKey: String?)
  /// Refused changes put back in the queue.
  case requeue(ids: [UUID], at: Date)
  /// A refused change dropped for good, with the value shown for it unless that is synced.
  case discard(id: UUID)
}

/// What a store holds — values by key, the outbox in order — and how a change applies.
/// Every change applies in time independent of the history (an index finds an entry).
struct StoreState<Value: Codable & Sendable> {
  var records: [String: StoredRecord<Value>] = [:]
  private(set) var outbox: [OutboxEntry] = []
  private var positions: [UUID: Int] = [:]

  init(records: [String: StoredRecord<Value>] = [:], outbox: [OutboxEntry] = []) {
    self.records = records
    self.outbox = outbox
    positions = Dictionary(outbox.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { $1 })
  }

  func entry(_ id: UUID) -> OutboxEntry? { positions[id].map { outbox[$0] } }

  mutating func apply(_ change: StoreChange<Value>) {
    switch change {
    case .put(let key, let record):
      records[key] = record
    case .replaceSynced(let values, let stamp):
      records = records.filter { $0.value.status != .synced }
      for (key, value) in values where records[key] == nil {
        records[key] = StoredRecord(value: value, status: .synced, updatedAt: stamp)
      }
    case .enqueue(let entry, let record):
      positions[entry.id] = outbox.count
      outbox.append(entry)
      if let key = entry.recordKey, let record { records[key] = record }
    case .settle(let entry, let record, let formerKey):
      guard let position = positions[entry.id] else { return }
      outbox[position] = entry
      if let formerKey, formerKey != entry.recordKey { records[formerKey] = nil }
      if let key = entry.recordKey, let record { records[key] = record }
    case .discard(let id):
      guard let position = positions[id] else { return }
      let entry = outbox.remove(at: position)
      if let key = entry.recordKey, records[key]?.status != .synced { records[key] = nil }
      positions = Dictionary(outbox.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { $1 })
    case .requeue(let ids, let stamp):
      for id in ids {
        guard let position = positions[id], outbox[position].status == .failed else { continue }
        outbox[position].status = .pending
        outbox[position].message = nil
        if let key = outbox[position].recordKey, var record = records[key] {
          record.status = .pending
          record.message = nil
          record.updatedAt = stamp
          records[key] = record
        }
      }
    }
  }

  /// Forgets history: all but the newest `kept` synced changes, and synced values beyond the
  /// newest `records` or last changed before `since`. Pending and failed changes, and the
  /// values shown for them, always stay: the store follows what is waiting, not the past.
  mutating func dropSettled(keeping kept: Int, records keptRecords: Int, since: Date) {
    var synced = outbox.lazy.filter { $0.status == .synced }.count
    if synced > kept {
      outbox.removeAll { entry in
        guard entry.status == .synced, synced > kept else { return false }
        synced -= 1
        return true
      }
      positions = Dictionary(outbox.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { $1 })
    }
    let waiting = Set(outbox.lazy.filter { $0.status != .synced }.compactMap(\.recordKey))
    let history = records.filter { $0.value.status == .synced && !waiting.contains($0.key) }
      .sorted {
        $0.value.updatedAt > $1.value.updatedAt
          || ($0.value.updatedAt == $1.value.updatedAt && $0.key < $1.key)
      }
    for (rank, old) in history.enumerated() where rank >= keptRecords || old.value.updatedAt < since
    {
      records[old.key] = nil
    }
  }
}

/// The store's compacted state, in `<base>.snapshot`: a header line
/// `strata-store <format version> <generation> <CRC-32 of the body>`, then the JSON of the
/// records and the outbox. The generation names the log that continues it
/// (`<base>.log-<generation>`), so a process that reads a new generation in the header knows
/// another one compacted the store. Format 2 (no checksum) is still read.
struct StoreSnapshot<Value: Codable & Sendable>: Codable {
  static var formatVersion: Int { 3 }

  var generation: Int
  var records: [String: StoredRecord<Value>]
  var outbox: [OutboxEntry]

  /// What reading a snapshot found.
  enum Read {
    case none
    case intact(StoreSnapshot)
    /// The checksum failed or the body does not decode: `readable` is what still decodes
    /// (nil when nothing does), `generation` the header's when it can be read.
    case damaged(readable: StoreSnapshot?, generation: Int?, bytes: Data)
  }

  /// The generation in the header at `path`: 0 when there is no snapshot, nil when its header
  /// cannot be read (damage, which ``read(at:maxSize:)`` reports).
  static func generation(at path: String) throws -> Int? {
    guard let fd = try StoreLog.openRegularFile(path, O_RDONLY) else { return 0 }
    defer { close(fd) }
    var header = [UInt8](repeating: 0, count: 80)
    let count = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    return try parseHeader(header[..<count], path: path)?.generation
  }

  /// The snapshot at `path`.
  /// - Throws: ``StoreError/tooLarge(path:size:limit:)`` over `maxSize`,
  ///   ``StoreError/unsupportedVersion(path:found:expected:)`` for a format this build does
  ///   not know (a newer one: nothing is damaged, so nothing is set aside).
  static func read(at path: String, maxSize: Int) throws -> Read {
    guard let fd = try StoreLog.openRegularFile(path, O_RDONLY) else { return .none }
    let file = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    let data: Data
    do {
      data = try file.read(upToCount: maxSize + 1) ?? Data()
    } catch {
      throw StoreError.io(path: path, operation: "read", errno: errno)
    }
    guard data.count <= maxSize else {
      throw StoreError.tooLarge(path: path, size: data.count, limit: maxSize)
    }
    guard let header = try parseHeader(data.prefix(80), path: path) else {
      return .damaged(readable: nil, generation: nil, bytes: data)
    }
    let body = data[(data.startIndex + header.bodyStart)...]
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .millisecondsSince1970
    var snapshot = try? decoder.decode(StoreSnapshot.self, from: body)
    snapshot?.generation = header.generation
    guard let snapshot, header.checksum.map({ $0 == CRC32.checksum(body) }) ?? true else {
      return .damaged(readable: snapshot, generation: header.generation, bytes: data)
    }
    return .intact(snapshot)
  }

  /// Replaces the snapshot at `path` atomically (temporary file, fsync, rename, directory
  /// fsync): a reader, or a crash, sees the old one or the new one whole.
  /// - Throws: ``StoreError/tooLarge(path:size:limit:)`` when it would be over `maxSize`,
  ///   which the reader refuses: nothing is written then.
  func write(
    to path: String, maxSize: Int, files: any DurableFiles, pause: ((String) -> Void)?
  ) throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .millisecondsSince1970
    let body: Data
    do {
      body = try encoder.encode(self)
    } catch {
      throw StoreError.unreadable(path: path, reason: "not encodable: \(error)")
    }
    let header = Array(
      "strata-store \(Self.formatVersion) \(generation) \(String(format: "%08x", CRC32.checksum(body)))\n"
        .utf8)
    guard header.count + body.count <= maxSize else {
      throw StoreError.tooLarge(path: path, size: header.count + body.count, limit: maxSize)
    }
    if let code = StoreCrashPoint.injectedFailure(path) {
      throw StoreError.io(path: path, operation: "write", errno: code)
    }
    if let failure = FileDescriptor.replaceAtomically(
      path, with: header + body, mode: 0o600, files: files,
      beforeRename: pause.map { pause in { pause("compact.written") } })
    {
      throw StoreError.io(path: path, operation: failure.operation, errno: failure.errno)
    }
  }

  /// The header's generation, checksum (format 3) and where the body starts; nil when it is
  /// not a store header at all.
  private static func parseHeader(_ bytes: some Collection<UInt8>, path: String) throws -> (
    generation: Int, checksum: UInt32?, bodyStart: Int
  )? {
    guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
    let words = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
    guard words.count >= 3, words[0] == "strata-store", let version = Int(words[1]),
      let generation = Int(words[2]), generation >= 0
    else { return nil }
    guard version == formatVersion || version == 2 else {
      throw StoreError.unsupportedVersion(path: path, found: version, expected: formatVersion)
    }
    var checksum: UInt32?
    if version == 3 {
      guard words.count == 4, let value = UInt32(words[3], radix: 16) else { return nil }
      checksum = value
    }
    return (generation, checksum, bytes.distance(from: bytes.startIndex, to: newline) + 1)
  }
}
