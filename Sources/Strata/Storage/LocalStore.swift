import Foundation
import StrataConcurrency

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Values kept on this device beside the API — each with its ``SyncStatus`` — and the outbox
/// of changes made here that the server has not accepted yet. Offline, or when the server
/// cannot be reached, a change is kept at once (``enqueue(kind:payload:showing:key:)``) and
/// sent later by ``sync(progress:send:)``, in the order it was made, with the idempotency key
/// fixed when it was made. What it guarantees:
/// - **Durable**: when a write returns, its change is on disk (`fdatasync`); a process killed
///   at any instant loses no change that was accepted.
/// - **One writer at a time, across processes**: every read-modify-write holds an exclusive
///   `flock` on `<path>.lock`, and first reads what other processes wrote.
/// - **One sync at a time**: a second ``sync(progress:send:)`` — here or in another process —
///   throws ``StoreError/syncInProgress(path:)`` at once, so no change is sent twice by two
///   syncs, even to a server that ignores `Idempotency-Key`.
/// - **Sent once, if the server honours `Idempotency-Key`**: an outcome is recorded before
///   the next send and a synced change is never sent again; only a process killed between a
///   send and its record sends that change again, with the same key.
/// - **Cost per change independent of history**: a change is one appended record
///   (`<path>.log-<generation>`); the snapshot (`<path>.snapshot`) is rewritten only by a
///   compaction, when the log grows past 4× the snapshot (and 1 MiB), which also forgets all
///   but the newest 100 synced changes. A value or answer over 1 MiB is never kept.
public actor LocalStore<Value: Codable & Sendable> {
  /// What one change's send came to.
  public struct Outcome: Sendable {
    /// The change as it now stands.
    public let entry: OutboxEntry
    /// The server's answer, as kept (nil when `send` returned none, or it was too large).
    public let settled: Settled?
  }

  /// What the server answered a change with: the value and the key it is kept under.
  public struct Settled: Codable, Sendable {
    public let key: String
    public let value: Value

    public init(key: String, value: Value) {
      (self.key, self.value) = (key, value)
    }
  }

  /// How far a sync is: `done` of `total` changes sent, `entry` the one being sent.
  public struct Progress: Sendable {
    public let done: Int
    public let total: Int
    public let entry: OutboxEntry
  }

  package struct Options: Sendable {
    /// The largest change or answer one record keeps, in bytes of JSON.
    package var maxRecordSize = 1 << 20
    /// Synced changes a compaction keeps, for showing recent outcomes.
    package var keptSyncedChanges = 100
    /// A compaction runs when the log is this many times the snapshot's size…
    package var compactionRatio = 4
    /// …and at least this large, in bytes.
    package var minimumCompactionSize = 1 << 20
    package var maxSnapshotSize = 1 << 30
    package var lockTimeout = Duration.seconds(30)
    package init() {}
  }

  private let base: String
  private let options: Options
  private let now: @Sendable () -> Date
  private var state = StoreState<Value>()
  private var generation = 0
  private var log: StoreLog?
  private var snapshotSize = 0
  private var directoryChecked = false
  private var isSyncing = false
  // One coder pair per store, not per operation: every read and write goes through them.
  private let encoder = JSONEncoder()
  private let decoder = JSONDecoder()

  /// A store whose files are `<path>.snapshot`, `<path>.log-N`, `<path>.lock` and
  /// `<path>.sync-lock` (their directory is created owner-only); `now` stamps what is written.
  package init(path: String, now: @escaping @Sendable () -> Date = { Date() }) {
    self.init(path: path, options: Options(), now: now)
  }

  /// The store named `name` that `app` keeps for the API at `origin`:
  /// `<directory>/<scheme>_<host>_<port>/<name>`, the directory being
  /// `$XDG_DATA_HOME/<app>/store` (else `~/.local/share/<app>/store`) unless given. The same
  /// rule as the session files, so nothing from a server or a config value places a file
  /// elsewhere; the origin and the name become one safe path component each.
  public init(
    app: String, origin: Origin, name: String, directory: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    let directory = directory ?? AppDirectories(app: app, environment: environment).data + "/store"
    self.init(
      path: "\(directory)/\(AppDirectories.component(for: origin))/"
        + AppDirectories.component(name),
      now: now)
  }

  package init(path: String, options: Options, now: @escaping @Sendable () -> Date = { Date() }) {
    self.base = path
    self.options = options
    self.now = now
    encoder.dateEncodingStrategy = .millisecondsSince1970
    decoder.dateDecodingStrategy = .millisecondsSince1970
  }

  // MARK: Values

  /// Every value, newest change first.
  public func records() async throws -> [(key: String, record: StoredRecord<Value>)] {
    try await reading { $0.records.map { ($0.key, $0.value) } }
      .sorted {
        $0.record.updatedAt > $1.record.updatedAt
          || ($0.record.updatedAt == $1.record.updatedAt && $0.key < $1.key)
      }
  }

  public func record(_ key: String) async throws -> StoredRecord<Value>? {
    try await reading { $0.records[key] }
  }

  package func put(_ value: Value, key: String, status: SyncStatus, message: String? = nil)
    async throws
  {
    let record = StoredRecord(value: value, status: status, updatedAt: now(), message: message)
    try await writing { _ in (.put(key: key, record: record), ()) }
  }

  /// Replaces every `synced` value with `values` (a fresh page from the server), keeping the
  /// `pending` and `failed` ones.
  public func replaceSynced(with values: [(key: String, value: Value)]) async throws {
    let page = Dictionary(
      values.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    let stamp = now()
    try await writing { _ in (.replaceSynced(values: page, at: stamp), ()) }
  }

  // MARK: Outbox

  /// Keeps a change to send later — and, when `value` is given, shows it under `key`
  /// (default: the change's idempotency key) as `pending`, in the same record, so the two
  /// never disagree. The idempotency key is fixed now.
  /// - Throws: ``StoreError/tooLarge(path:size:limit:)`` for a change over 1 MiB.
  @discardableResult
  public func enqueue(kind: String, payload: Data, showing value: Value? = nil, key: String? = nil)
    async throws -> OutboxEntry
  {
    try await writing { _ in
      var entry = OutboxEntry(kind: kind, payload: payload, createdAt: now())
      let record = value.map {
        StoredRecord(value: $0, status: .pending, updatedAt: entry.createdAt)
      }
      if record != nil { entry.recordKey = key ?? entry.idempotencyKey }
      return (.enqueue(entry: entry, record: record), entry)
    }
  }

  /// The changes waiting or refused, and the newest synced ones, oldest first.
  public func outbox() async throws -> [OutboxEntry] { try await reading { $0.outbox } }

  /// Puts every refused change back in the queue (and its value back to `pending`), for the
  /// next sync to send in its original place.
  /// - Returns: How many.
  @discardableResult
  public func retryFailed() async throws -> Int {
    let stamp = now()
    return try await writing { state in
      let failed = state.outbox.filter { $0.status == .failed }.map(\.id)
      return (failed.isEmpty ? nil : .requeue(ids: failed, at: stamp), failed.count)
    }
  }

  /// Sends the pending changes, oldest first, one at a time, recording each outcome
  /// before the next send:
  /// - `send` returns → `synced`; its answer is kept under its key (not when over 1 MiB: then
  ///   the change is synced with a note saying so).
  /// - `send` throws ``ChangeRefused`` → `failed` with the reason; the next change goes on.
  /// - any other error (offline, timeout, 5xx, a page that is not the API's, a session that
  ///   could not be renewed) → the change stays `pending` and the sync stops, keeping order.
  ///
  /// `send` gets the entry (send its ``OutboxEntry/idempotencyKey`` with it). Changes queued
  /// while the sync runs wait for the next one.
  /// - Throws: ``StoreError/syncInProgress(path:)`` when a sync of this store is running.
  public func sync(
    progress: (@Sendable (Progress) -> Void)? = nil,
    send: @Sendable (OutboxEntry) async throws -> Settled?
  ) async throws -> [Outcome] {
    guard !isSyncing else { throw StoreError.syncInProgress(path: base) }
    isSyncing = true
    defer { isSyncing = false }
    try checkDirectory()
    let syncLock = try await lock(base + ".sync-lock", exclusive: true, wait: false)
    defer { syncLock.release() }
    let pending = try await reading { $0.outbox.filter { $0.status == .pending } }
    var outcomes: [Outcome] = []
    for (done, original) in pending.enumerated() {
      progress?(Progress(done: done, total: pending.count, entry: original))
      var entry = original
      entry.attempts += 1
      var answer: Settled?
      do {
        answer = try await send(entry)
        entry.status = .synced
        entry.message = nil
      } catch let refusal as ChangeRefused {
        entry.status = .failed
        entry.message = refusal.reason
      } catch {
        entry.message = UntrustedText.sanitize(String(describing: error), limit: 200)
      }
      var kept = answer
      do {
        try await record(entry, kept)
      } catch StoreError.tooLarge where kept != nil {
        // Too large to keep is not a reason to send it again: synced, without the answer.
        entry.message =
          "the server's answer is over the \(options.maxRecordSize)-byte limit: not kept"
        kept = nil
        try await record(entry, nil)
      }
      outcomes.append(Outcome(entry: entry, settled: kept))
      if entry.status == .pending { break }
    }
    return outcomes
  }

  // MARK: Internals

  /// Writes a send's outcome: the entry, and the value under its record key — the answer, or
  /// the value shown for it with the entry's status.
  private func record(_ entry: OutboxEntry, _ answer: Settled?) async throws {
    let stamp = now()
    try await writing { state in (Self.settle(entry, answer, in: state, at: stamp), ()) }
  }

  private static func settle(
    _ entry: OutboxEntry, _ answer: Settled?, in state: StoreState<Value>, at stamp: Date
  ) -> StoreChange<Value> {
    var entry = entry
    if let answer {
      let former = entry.recordKey
      entry.recordKey = answer.key
      return .settle(
        entry: entry, record: StoredRecord(value: answer.value, status: .synced, updatedAt: stamp),
        formerKey: former)
    }
    guard entry.status != .pending, let key = entry.recordKey, var record = state.records[key]
    else { return .settle(entry: entry, record: nil, formerKey: nil) }
    record.status = entry.status
    record.message = entry.message
    record.updatedAt = stamp
    return .settle(entry: entry, record: record, formerKey: nil)
  }

  private var snapshotPath: String { base + ".snapshot" }
  private func logPath(_ generation: Int) -> String { base + ".log-\(generation)" }

  /// Runs `body` on the current state under a shared lock.
  private func reading<T>(_ body: (StoreState<Value>) throws -> T) async throws -> T {
    try checkDirectory()
    let lock = try await lock(base + ".lock", exclusive: false, wait: true)
    defer { lock.release() }
    try catchUp(exclusive: false)
    return try body(state)
  }

  /// Under the exclusive lock, on the current state: `body` decides the change (nil: none),
  /// which is appended to the log, on disk, before it is applied.
  private func writing<T>(_ body: (StoreState<Value>) throws -> (StoreChange<Value>?, T))
    async throws -> T
  {
    try checkDirectory()
    let lock = try await lock(base + ".lock", exclusive: true, wait: true)
    defer { lock.release() }
    try catchUp(exclusive: true)
    let (change, result) = try body(state)
    guard let change, let log else { return result }
    let json = try encoder.encode(change)
    guard json.count <= options.maxRecordSize else {
      throw StoreError.tooLarge(path: log.path, size: json.count, limit: options.maxRecordSize)
    }
    try log.append(json, pause: StoreCrashPoint.current)
    state.apply(change)
    if log.offset > max(options.minimumCompactionSize, options.compactionRatio * snapshotSize) {
      try compact()
    }
    return result
  }

  /// Reads what other processes wrote since the last call: the whole store again if one of
  /// them compacted it (the snapshot's generation moved), else the log's new records.
  private func catchUp(exclusive: Bool) throws {
    let current = try StoreSnapshot<Value>.generation(at: snapshotPath)
    if log == nil || current != generation { try reload() }
    guard let log else { return }
    for json in try log.readNew() {
      do {
        state.apply(try decoder.decode(StoreChange<Value>.self, from: json))
      } catch {
        throw StoreError.unreadable(path: log.path, reason: String(describing: error))
      }
    }
    if exclusive { try log.dropTornTail() }
  }

  private func reload() throws {
    let snapshot =
      try StoreSnapshot<Value>.read(at: snapshotPath, maxSize: options.maxSnapshotSize)
      ?? Self.formatOne(at: base + ".json")
    state = StoreState(records: snapshot?.records ?? [:], outbox: snapshot?.outbox ?? [])
    generation = snapshot?.generation ?? 0
    snapshotSize = Self.size(of: snapshotPath)
    log = nil
    log = try StoreLog(path: logPath(generation))
  }

  /// Folds the log into a new snapshot. Each step leaves a loadable store if the process
  /// dies there: the new (empty) log is created first, unused until the snapshot naming its
  /// generation is renamed into place; the old log is removed only after that.
  package func compact() throws {
    guard log != nil else { return }
    let hook = StoreCrashPoint.current
    state.dropSettled(keeping: options.keptSyncedChanges)
    let next = generation + 1
    let fresh = try StoreLog(path: logPath(next), truncate: true)
    try StoreSnapshot(generation: next, records: state.records, outbox: state.outbox)
      .write(to: snapshotPath, pause: hook)
    hook?("compact.renamed")
    unlink(logPath(generation))
    unlink(base + ".json")  // format 1, now in the snapshot
    generation = next
    log = fresh
    snapshotSize = Self.size(of: snapshotPath)
    removeLeftovers()
  }

  private struct FormatOne: Decodable {
    struct Contents: Decodable {
      var records: [String: StoredRecord<Value>]
      var outbox: [OutboxEntry]
    }
    let version: Int
    let document: Contents
  }

  /// The store as the previous build kept it — one JSON document `{"version": 1, "document":
  /// {"records", "outbox"}}` at `<path>.json` — read while there is no snapshot, so changes it
  /// kept are still sent after an upgrade; the first compaction folds it in and removes it.
  private static func formatOne(at path: String) -> StoreSnapshot<Value>? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .millisecondsSince1970
    guard let old = try? decoder.decode(FormatOne.self, from: data), old.version == 1 else {
      return nil
    }
    let outbox = old.document.outbox.map { entry in
      var entry = entry
      if old.document.records[entry.idempotencyKey] != nil {
        entry.recordKey = entry.idempotencyKey
      }
      return entry
    }
    return StoreSnapshot(generation: 0, records: old.document.records, outbox: outbox)
  }

  /// Logs of older generations and temporary snapshots a killed compaction left behind.
  private func removeLeftovers() {
    let directory = (base as NSString).deletingLastPathComponent
    let name = (base as NSString).lastPathComponent
    let keep = (logPath(generation) as NSString).lastPathComponent
    for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    where file != keep
      && (file.hasPrefix(name + ".log-") || file.hasPrefix(name + ".snapshot.tmp-"))
    {
      unlink(directory + "/" + file)
    }
  }

  /// The file sizes, for benchmarks: the snapshot and the current log.
  package func fileSizes() async throws -> (snapshot: Int, log: Int) {
    try await reading { _ in (Self.size(of: snapshotPath), log?.size ?? 0) }
  }

  private static func size(of path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
  }

  private func checkDirectory() throws {
    guard !directoryChecked else { return }
    let directory = (base as NSString).deletingLastPathComponent
    switch FileDescriptor.checkPrivateDirectory(directory, create: true) {
    case nil: directoryChecked = true
    case .foreignOwner(let owner):
      throw StoreError.insecureDirectory(path: directory, reason: "it belongs to user \(owner)")
    case .writableByOthers(let mode):
      throw StoreError.insecureDirectory(
        path: directory,
        reason: "mode \(String(mode, radix: 8)) lets other users write there; run chmod 700")
    case .failed(let operation, let code):
      throw StoreError.io(path: directory, operation: operation, errno: code)
    }
  }

  private func lock(_ path: String, exclusive: Bool, wait: Bool) async throws -> FileLock {
    do {
      return try await FileLock.acquire(
        path, exclusive: exclusive, timeout: wait ? options.lockTimeout : nil)
    } catch FileLock.Failure.busy {
      throw StoreError.syncInProgress(path: base)
    } catch FileLock.Failure.timedOut {
      throw StoreError.lockTimedOut(path: path)
    } catch FileLock.Failure.io(let operation, let code) {
      throw StoreError.io(path: path, operation: operation, errno: code)
    }
  }
}

/// Where the crash tests park a writer to kill it: `append.partial` (a record half written),
/// `compact.written` (a new snapshot complete, not yet in place), `compact.renamed` (in
/// place, the old log not yet removed). Nil — nothing called — outside those tests.
package enum StoreCrashPoint {
  package typealias Pause = @Sendable (String) -> Void
  package static let hook = Lock<Pause?>(Pause?.none)
  static var current: Pause? { hook.withLock { $0 } }
}
