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

  /// Forgets all but the newest `kept` synced changes (pending and failed ones always stay):
  /// the outbox follows what is waiting, not the history.
  mutating func dropSettled(keeping kept: Int) {
    var synced = outbox.lazy.filter { $0.status == .synced }.count
    guard synced > kept else { return }
    outbox.removeAll { entry in
      guard entry.status == .synced, synced > kept else { return false }
      synced -= 1
      return true
    }
    positions = Dictionary(outbox.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { $1 })
  }
}

/// The store's compacted state, in `<base>.snapshot`: a header line
/// `strata-store <format version> <generation>`, then the JSON of the records and the outbox.
/// The generation names the log that continues it (`<base>.log-<generation>`), so a process
/// that reads a new generation in the header knows another one compacted the store.
struct StoreSnapshot<Value: Codable & Sendable>: Codable {
  static var formatVersion: Int { 2 }

  var generation: Int
  var records: [String: StoredRecord<Value>]
  var outbox: [OutboxEntry]

  /// The generation in the header at `path`; 0 when there is no snapshot yet.
  static func generation(at path: String) throws -> Int {
    guard let fd = try StoreLog.openRegularFile(path, O_RDONLY) else { return 0 }
    defer { close(fd) }
    var header = [UInt8](repeating: 0, count: 64)
    let count = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { throw StoreError.unreadable(path: path, reason: "empty snapshot") }
    return try parseHeader(header[..<count], path: path).generation
  }

  /// The snapshot at `path`, nil when there is none.
  static func read(at path: String, maxSize: Int) throws -> StoreSnapshot? {
    guard let fd = try StoreLog.openRegularFile(path, O_RDONLY) else { return nil }
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
    let (generation, bodyStart) = try parseHeader(data.prefix(64), path: path)
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .millisecondsSince1970
    do {
      var snapshot = try decoder.decode(StoreSnapshot.self, from: data[bodyStart...])
      snapshot.generation = generation
      return snapshot
    } catch {
      throw StoreError.unreadable(path: path, reason: String(describing: error))
    }
  }

  /// Replaces the snapshot at `path` atomically (temporary file, fsync, rename, directory
  /// fsync): a reader, or a crash, sees the old one or the new one whole.
  func write(to path: String, pause: ((String) -> Void)?) throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .millisecondsSince1970
    var bytes = Array("strata-store \(Self.formatVersion) \(generation)\n".utf8)
    do {
      bytes += try encoder.encode(self)
    } catch {
      throw StoreError.unreadable(path: path, reason: "not encodable: \(error)")
    }
    if let failure = FileDescriptor.replaceAtomically(
      path, with: bytes, mode: 0o600,
      beforeRename: pause.map { pause in { pause("compact.written") } })
    {
      throw StoreError.io(path: path, operation: failure.operation, errno: failure.errno)
    }
  }

  private static func parseHeader(_ bytes: some Collection<UInt8>, path: String) throws -> (
    generation: Int, bodyStart: Int
  ) {
    guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
      throw StoreError.unreadable(path: path, reason: "no header line")
    }
    let words = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
    guard words.count == 3, words[0] == "strata-store", let version = Int(words[1]),
      let generation = Int(words[2]), generation >= 0
    else { throw StoreError.unreadable(path: path, reason: "not a store snapshot") }
    guard version == formatVersion else {
      throw StoreError.unsupportedVersion(path: path, found: version, expected: formatVersion)
    }
    return (generation, bytes.distance(from: bytes.startIndex, to: newline) + 1)
  }
}
