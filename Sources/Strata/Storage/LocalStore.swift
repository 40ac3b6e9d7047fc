import Foundation

/// Values kept on this device beside the API — each with its ``SyncStatus`` — and the outbox
/// of changes made here that the server has not accepted yet. Offline, or when the server
/// cannot be reached, a change is kept at once (``enqueue(_:_:)``) and
/// sent later by ``sync(only:maxAttempts:progress:send:)``, in the order it was made, with the idempotency key
/// fixed when it was made. What it guarantees:
/// - **Durable**: when a write returns, its change is on disk (`fdatasync`); a process killed
///   at any instant loses no change that was accepted.
/// - **One writer at a time, across processes**: every read-modify-write holds an exclusive
///   `flock` on `<path>.lock`, and first reads what other processes wrote.
/// - **One sync at a time**: a second ``sync(only:maxAttempts:progress:send:)`` — here or in another process —
///   throws ``FileError/syncInProgress(path:)`` at once, so no change is sent twice by two
///   syncs, even to a server that ignores `Idempotency-Key`.
/// - **Sent once, if the server honours `Idempotency-Key`**: an outcome is recorded before
///   the next send and a synced change is never sent again; only a process killed between a
///   send and its record sends that change again, with the same key.
/// - **Cost per change independent of history**: a change is one record appended to the
///   journal (`<path>.log-<generation>`); the snapshot (`<path>.snapshot`) is rewritten only by
///   a compaction, when the journal grows past twice the snapshot (and 256 KiB), which also
///   forgets all but the newest 100 synced changes and prunes synced values by count and age.
///   A value or answer over 1 MiB is never kept.
///
/// The parts: this file is the API; `LocalStore+Sync` sends the outbox; `LocalStore+Journal`
/// reads and writes under the lock and replays the journal; `LocalStore+Compaction` folds it
/// into a snapshot; `LocalStore+FormatOne` reads the first build's files;
/// `LocalStore+FileChecks` checks the directory and maps lock failures. They share two values:
/// `StoreState`, what the store holds, and `StoreDisk`, which files are in use.
public actor LocalStore<Value: Codable & Sendable> {
  /// Whose values and changes these are. Its changes are sent only in its session: each send
  /// runs as this owner (``DataOwner/run(isolation:_:)``), and ``NetworkService`` sends nothing for an
  /// owner who is not signed in at that moment.
  public nonisolated let owner: DataOwner
  let base: String
  let options: Options
  let now: @Sendable () -> Date
  /// What the store holds, as the files said when last read.
  var state = StoreState<Value>()
  /// Which of the files are in use and in what shape.
  var disk = StoreDisk()
  /// Which values the recent changes touched, for live queries.
  var history = StoreHistory()
  var directoryChecked = false
  var isSyncing = false
  /// How many reads of the files this instance made (tests: a watcher reads nothing
  /// between changes).
  package internal(set) var reads = 0
  /// Told after each change this instance writes (``changesWritten()``).
  let written = EventBroadcaster<Void>()
  // One coder pair per store, not per operation: every read and write goes through them.
  let encoder = JSONEncoder()
  let decoder = JSONDecoder()

  /// A store whose files are `<path>.snapshot`, `<path>.log-N`, `<path>.lock` and
  /// `<path>.sync-lock` (their directory is created owner-only); `now` stamps what is written.
  package init(
    path: String, owner: DataOwner = .device, now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.init(path: path, options: Options(), owner: owner, now: now)
  }

  /// The store named `name` that `app` keeps for `owner` and the API at `origin`:
  /// `<directory>/<scheme>_<host>_<port>/<name>` for the device (what was made signed out), and
  /// `<directory>/<scheme>_<host>_<port>/accounts/<account>/<name>` for an account, the
  /// directory being `$XDG_DATA_HOME/<app>/store` (else `~/.local/share/<app>/store`; on Apple platforms
  /// `Library/Application Support/<app>/store`) unless
  /// given. Each owner's files stand apart, so one account's changes are never listed, synced
  /// or compacted with another's. The same rule as the session files, so nothing from a server
  /// or a config value places a file elsewhere; the origin, the account and the name become one
  /// safe path component each (two accounts never share one).
  ///
  /// Synced values are history the server keeps: a compaction keeps the newest
  /// `keepingSynced` of them that changed within `syncedFor`, so opening the store costs the
  /// same after years of use. Pending and refused changes, and their values, always stay.
  /// `indexes` are the fields queries look up without reading every value.
  public init(
    app: String, origin: Origin, name: String, owner: DataOwner, directory: String? = nil,
    keepingSynced: Int = 250, syncedFor: Duration = .seconds(30 * 86_400),
    indexes: [ValueIndex<Value>] = [],
    environment: [String: String] = ProcessInfo.processInfo.environment,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    let directory = directory ?? AppDirectories(app: app, environment: environment).data + "/store"
    var options = Options()
    options.keptSyncedRecords = max(0, keepingSynced)
    options.keptSyncedAge = syncedFor
    options.indexes = indexes
    let owned = owner.account.map { "accounts/" + AppDirectories.component(account: $0) + "/" }
    self.init(
      path: "\(directory)/\(AppDirectories.component(for: origin))/" + (owned ?? "")
        + AppDirectories.component(name),
      options: options, owner: owner, now: now)
  }

  package init(
    path: String, options: Options, owner: DataOwner = .device,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.owner = owner
    self.base = path
    self.options = options
    self.now = now
    encoder.dateEncodingStrategy = .millisecondsSince1970
    decoder.dateDecodingStrategy = .millisecondsSince1970
  }

  // MARK: Values

  /// The identities of the changes not yet synced to each of `keys`, oldest first.
  package func unsentChanges(to keys: [String]) async throws -> [String: [String]] {
    let wanted = Set(keys.map(StoreKey.init))
    return try await reading { state in
      var changes: [String: [String]] = [:]
      for entry in state.outbox where entry.status != .synced {
        guard let key = entry.storeKey, wanted.contains(key) else { continue }
        changes[key.string, default: []].append(entry.idempotencyKey)
      }
      return changes
    }
  }

  /// The value under `key`, nil when there is none; read from the files, so a change another
  /// process made is seen.
  public func record(_ key: String) async throws -> StoredRecord<Value>? {
    try await reading { $0.records[key] }
  }

  package func put(
    _ value: Value, key: String, status: SyncStatus, message: String? = nil,
    version: String? = nil
  ) async throws {
    let record = StoredRecord(
      value: value, status: status, updatedAt: now(), message: message, version: version)
    try await writing { _ in (.put(key: key, record: record), ()) }
  }

  /// A signal after each change this instance writes, at once (a change another process or
  /// instance writes shows in ``fileStamp()``).
  public nonisolated func changesWritten() -> AsyncStream<Void> { written.stream() }

  /// How the store's files stand on disk (each file's inode, size and change time), read
  /// without the lock and without reading a file: when it differs from an earlier one,
  /// another process or instance may have changed the store.
  public func fileStamp() -> [String?] {
    [
      PrivateFile.stamp(of: snapshotPath),
      PrivateFile.stamp(of: journalPath(disk.journalGeneration)),
    ]
  }

  // MARK: Outbox

  /// Keeps a change made from the value the store holds under `key` at this very moment,
  /// under the store's lock — the one way a change enters the outbox. `plan` gets that value's
  /// record (nil when there is none; a key the server gave something made here finds it,
  /// ``StoredRecord/serverKey``) and the newest change to it when that one was never sent and
  /// no sync is running here or in another process (else nil: it may be on its way, and can no
  /// longer be rewritten), and says what happens to the outbox (nil: nothing). Processes that
  /// change one value at once each start from what the last one left — a toggle made eight
  /// times at once flips it eight times.
  ///
  /// Without a `key`, the change is something new: its value is shown under the change's own
  /// ``OutboxEntry/idempotencyKey``. The idempotency key is fixed now.
  /// ```swift
  /// try await store.enqueue { _, _ in .append(kind: "post.create", payload: body, showing: draft) }
  /// ```
  /// - Returns: The change appended or rewritten; nil when the plan was nil or discarded the
  ///   unsent change, or rewrote or discarded one that was not there (nothing is done).
  /// - Throws: ``AmbiguousKey`` when `key` is the server's key of two or more values (nothing
  ///   is done: the caller names one by its own key); ``FileError/tooLarge(path:size:limit:)``
  ///   for a change over 1 MiB.
  @discardableResult
  public func enqueue(
    _ key: String? = nil,
    _ plan:
      @Sendable (_ current: StoredRecord<Value>?, _ unsent: OutboxEntry?) throws
      -> OutboxPlan<Value>?
  ) async throws -> OutboxEntry? {
    try await writing { state in
      let stamp = now()  // under the lock: the order changes are appended in
      let id = UUID()
      guard let key else {
        // Something new, under a key no value or change has: nothing to look up, so a store
        // holding 100,000 changes takes a new one as fast as an empty one.
        guard let made = try plan(nil, nil) else { return (nil, nil) }
        let change = Self.change(
          made, id: id, to: id.uuidString, nil, nil, nil, at: stamp, base: (nil, nil), server: nil)
        return (change.journal, change.entry)
      }
      let matching = state.keys(matching: key)
      guard matching.count < 2 else { throw AmbiguousKey(key: key, matching: matching) }
      let found = matching.first ?? key
      let foundKey = StoreKey(found)
      let newest = state.outbox.last { $0.storeKey == foundKey && $0.status != .synced }
      // Asked under the store's lock: a sync that starts after this reads the pending changes
      // under that lock too, so it sees the rewritten one; one that started before holds the
      // sync lock, and may be sending `newest`, which then stays as it is.
      let quiet = !isSyncing && FileLock.isFree(base + ".sync-lock")
      let unsent = quiet && newest?.status == .pending && newest?.attempts == 0 ? newest : nil
      guard let made = try plan(state.records[found], unsent) else { return (nil, nil) }
      // What the change is made from, when that is the server's value as last seen (not a
      // change of the device's still to go, which it follows instead).
      let current = state.records[found]
      let base = current.flatMap { $0.status == .synced && newest == nil ? $0 : nil }
      let baseJSON = base.flatMap { try? encoder.encode($0.value) }
      // The server's value stays apart under the change: what a discard goes back to.
      let server = current?.status == .synced ? baseJSON : current?.serverValue
      let change = Self.change(
        made, id: id, to: found, current, newest, unsent, at: stamp,
        base: (baseJSON, base?.version), server: server)
      return (change.journal, change.entry)
    }
  }

  private static func change(
    _ plan: OutboxPlan<Value>, id: UUID, to key: String, _ current: StoredRecord<Value>?,
    _ newest: OutboxEntry?, _ unsent: OutboxEntry?, at stamp: Date,
    base: (value: Data?, version: String?), server: Data?
  ) -> (journal: StoreChange<Value>?, entry: OutboxEntry?) {
    // nil shows the value it had, deleted.
    func shown(_ value: Value?) -> StoredRecord<Value>? {
      guard let shown = value ?? current?.value else { return nil }
      return StoredRecord(
        value: shown, status: .pending, updatedAt: stamp, deleted: value == nil,
        serverKey: current?.serverKey, version: current?.version, serverValue: server)
    }
    switch plan {
    case .append(let kind, let payload, let value):
      var entry = OutboxEntry(id: id, kind: kind, payload: payload, createdAt: stamp)
      (entry.recordKey, entry.after) = (key, newest?.id)
      (entry.base, entry.baseVersion) = base
      return (.append(entry: entry, record: shown(value)), entry)
    case .rewrite(let kind, let payload, let value):
      guard let unsent else { return (nil, nil) }
      var entry = OutboxEntry(
        id: unsent.id, kind: kind, payload: payload, createdAt: unsent.createdAt)
      (entry.recordKey, entry.after) = (unsent.recordKey, unsent.after)
      (entry.base, entry.baseVersion) = (unsent.base, unsent.baseVersion)
      return (.rewrite(entry: entry, record: shown(value), formerKey: nil), entry)
    case .discard:
      guard let unsent else { return (nil, nil) }
      return (.discard(id: unsent.id), nil)
    }
  }

  /// The changes waiting or refused, and the newest synced ones, oldest first.
  public func outbox() async throws -> [OutboxEntry] { try await reading { $0.outbox } }

  /// Puts every refused change — or those of them with the identities in `only` — back in the
  /// queue (and its value back to `pending`), for the next sync to send in its original place.
  /// - Returns: How many.
  @discardableResult
  public func retryFailed(only: Set<UUID>? = nil) async throws -> Int {
    let stamp = now()
    return try await writing { state in
      let failed = state.outbox.filter { $0.status == .failed && only?.contains($0.id) ?? true }
        .map(\.id)
      return (failed.isEmpty ? nil : .requeue(ids: failed, at: stamp), failed.count)
    }
  }

  /// Drops a refused change for good, and the changes that follow it: the user gave up on it.
  /// The value goes back to the server's value as last seen (synced); one the server never
  /// had (made here, its creation refused) is dropped. Pending and synced changes are not
  /// touched.
  /// - Returns: Whether a refused change with that identity was there.
  @discardableResult
  public func discard(_ id: UUID) async throws -> Bool {
    try await writing { state in
      guard state.entry(id)?.status == .failed else { return (nil, false) }
      return (.discard(id: id), true)
    }
  }

  /// Drops the synced value under `key` (or the one value the server gave that key): the
  /// server deleted it. A value with a change still to settle stays: that change meets the
  /// deletion when it is sent.
  /// - Returns: Whether a value was dropped.
  @discardableResult
  public func forget(_ key: String) async throws -> Bool {
    try await writing { state in
      let matching = state.keys(matching: key)
      guard matching.count == 1, let found = matching.first,
        state.records[found]?.status == .synced
      else { return (nil, false) }
      return (.forget(key: found), true)
    }
  }

  /// Settles a ``SyncStatus/conflicted`` change (see ``ConflictResolution``): `mine` puts it
  /// back in the queue on top of the server's value (its base and `If-Match` now the server's),
  /// `theirs` keeps the server's value, synced, and drops the change — or, when the server's
  /// value was not read, drops the value too, for the next page to bring back.
  /// - Returns: Whether a conflicted change with that identity was there.
  @discardableResult
  public func resolve(_ id: UUID, keeping choice: ConflictResolution) async throws -> Bool {
    let stamp = now()
    return try await writing { state in
      guard var entry = state.entry(id), entry.status == .conflicted,
        let conflict = entry.conflict
      else { return (nil, false) }
      var record = entry.recordKey.flatMap { state.records[$0] }
      switch choice {
      case .mine:
        (entry.status, entry.message, entry.conflict) = (.pending, nil, nil)
        (entry.base, entry.baseVersion) = (conflict.theirs, conflict.version)
        record?.status = .pending
        if let theirs = conflict.theirs { record?.serverValue = theirs }
      case .theirs:
        guard let theirs = conflict.theirs,
          let value = try? decoder.decode(Value.self, from: theirs)
        else {
          // Their value is unknown (not kept): the value goes, for the next page to bring
          // back — the one it was made from is not what the server has now.
          (entry.status, entry.message, entry.conflict) = (.synced, Self.keptTheirs, nil)
          record?.deleted = true
          record?.status = .synced
          return (.rewrite(entry: entry, record: record, formerKey: nil), true)
        }
        (entry.status, entry.message, entry.conflict) = (.synced, Self.keptTheirs, nil)
        record?.value = value
        record?.status = .synced
        record?.deleted = false
        record?.version = conflict.version
        record?.serverValue = nil
      }
      record?.message = nil
      record?.updatedAt = stamp
      return (.rewrite(entry: entry, record: record, formerKey: nil), true)
    }
  }

  static var keptTheirs: String { "resolved: the server's value kept, this change dropped" }

  /// What was found damaged in the store's files and set aside, one sentence each: where,
  /// what it may have held, and what to do. Empty for a store in good health. Every command
  /// that reads a store should show these: the store goes on with what is intact.
  public func damage() async throws -> [String] {
    try await reading { _ in StoreDamage.report(base: base) }
  }

  /// The file sizes, for benchmarks: the snapshot and the current journal.
  package func fileSizes() async throws -> (snapshot: Int, journal: Int) {
    try await reading { _ in (PrivateFile.size(of: snapshotPath), disk.journal?.size ?? 0) }
  }
}
