import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The journal engine under ``LocalStore``: every read and write goes through `reading` or
/// `writing`, which take the store's `flock`, catch up with what other processes wrote, and
/// (for a write) append one record to the journal, on disk, before applying it.
///
/// Damage is set aside, never widened: a journal line that fails its checksum is copied next
/// to the store and skipped (the lines after it still count); a snapshot that fails its
/// checksum is copied aside, its lines that fail their checksums too (never used: a change is
/// sent as it reads), its intact lines are used, and the journal is read on top of it;
/// a snapshot whose generation names no journal on disk is damage too, and the journals that
/// are there are read. The next write then compacts, so the files are whole again.
extension LocalStore {
  var snapshotPath: String { base + ".snapshot" }
  func journalPath(_ generation: Int) -> String { base + ".log-\(generation)" }

  /// Runs `body` on the current state under a shared lock.
  func reading<T>(_ body: (StoreState<Value>) throws -> T) async throws -> T {
    reads += 1
    try checkDirectory()
    let lock = try await lock(base + ".lock", exclusive: false, wait: true)
    defer { lock.release() }
    try catchUp(exclusive: false)
    noteWrites()
    return try body(state)
  }

  /// Says once per store instance, at warning level, what damage has been set aside, while the
  /// store's files still hold it: every command or screen that reads a damaged store tells its
  /// user, not only the first. The next write repairs the files (a compaction leaves the
  /// damage out); from then on it is history, listed by ``damage()`` until a person removes
  /// the copies, but no longer warned about.
  func warnAboutDamage() {
    guard !disk.damageWarned, disk.needsRepair else { return }
    disk.damageWarned = true
    for sentence in StoreDamage.report(base: base) { Self.logger.warning("\(sentence)") }
  }

  static var logger: Log { Log(category: "storage") }

  /// Moves ``history`` on by the values the state's table was written since last asked.
  func noteWrites() { history.record(state.records.takeWritten()) }

  /// Under the exclusive lock, on the current state: `body` decides the change (nil: none),
  /// which is appended to the journal, on disk, before it is applied. A new change that would
  /// take the store past what a snapshot may hold is refused before anything is written. A
  /// compaction that fails afterwards (a full disk) does not fail the write: the change is
  /// kept, and the compaction is tried again once the journal has grown a quarter more.
  func writing<T>(_ body: (StoreState<Value>) throws -> (StoreChange<Value>?, T))
    async throws -> T
  {
    try checkDirectory()
    let lock = try await lock(base + ".lock", exclusive: true, wait: true)
    defer {
      noteWrites()
      lock.release()
    }
    try catchUp(exclusive: true)
    if disk.needsRepair { try? compact() }
    let (change, result) = try body(state)
    guard let change, let journal = disk.journal else { return result }
    let json = try encoder.encode(change)
    guard json.count <= options.maxRecordSize else {
      throw FileError.tooLarge(path: journal.path, size: json.count, limit: options.maxRecordSize)
    }
    if case .append = change,
      disk.snapshotSize + journal.offset + json.count > options.maxStoreSize
    {
      throw FileError.full(path: base, limit: options.maxStoreSize)
    }
    try journal.append(json, pause: StoreCrashPoint.current)
    state.apply(change)
    written.yield(())
    let threshold = max(
      options.minimumCompactionSize, options.compactionRatio * disk.snapshotSize,
      disk.compactionRetryAt)
    if journal.offset > threshold {
      do {
        try compact()
      } catch {
        disk.compactionRetryAt = journal.offset + journal.offset / 4
        Self.logger.warning("store \(base): compaction failed, the change is kept: \(error)")
      }
    }
    return result
  }

  /// After a sync: when synced changes or values beyond twice what is kept have piled up,
  /// compacts now instead of when the journal next doubles — a sync turns many pending changes
  /// into history at once, and every later open would read it. The cost follows what is kept.
  func pruneHistory() async throws {
    try checkDirectory()
    let lock = try await lock(base + ".lock", exclusive: true, wait: true)
    defer {
      noteWrites()
      lock.release()
    }
    try catchUp(exclusive: true)
    let changes = state.outbox.lazy.filter { $0.status == .synced }.count
    let values = state.records.values.lazy.filter { $0.status == .synced }.count
    guard changes > 2 * options.keptSyncedChanges || values > 2 * options.keptSyncedRecords
    else { return }
    try compact()
  }

  /// Reads what other processes wrote since the last call: the whole store again if one of
  /// them compacted it (the snapshot's generation moved), else the journal's new records.
  func catchUp(exclusive: Bool) throws {
    let current = try StoreSnapshot<Value>.generation(at: snapshotPath)
    if disk.journal == nil || current != disk.generation { try reload() }
    guard let journal = disk.journal else { return }
    try apply(journal)
    if exclusive { try journal.dropTornTail() }
    warnAboutDamage()
  }

  /// Applies the records `journal` has beyond what was read, a piece at a time, setting
  /// damaged lines aside.
  private func apply(_ journal: JournalFile) throws {
    while true {
      let read = try journal.readNew(limit: options.readPiece)
      guard !read.lines.isEmpty else { return }
      state.reserve(read.lines.count)
      try apply(read, from: journal)
    }
  }

  private func apply(
    _ read: (bytes: [UInt8], lines: [Range<Int>], start: Int), from journal: JournalFile
  ) throws {
    let name = (journal.path as NSString).lastPathComponent
    let decoded = JournalLines.decode(StoreChange<Value>.self, read.lines, in: read.bytes)
    for (line, result) in zip(read.lines, decoded) {
      switch result {
      case .value(let change):
        state.apply(change)
      case .damaged:
        StoreDamage.setAside(
          Array(read.bytes[line]), base: base, label: "\(name)-at-\(read.start + line.lowerBound)")
        disk.damageWarned = false  // new damage: say it again
        disk.needsRepair = true  // the next write leaves it out of the files
      case .undecodable(let error):
        // A record whose checksum holds but which this build cannot decode is not damage
        // to skip: it may be a newer build's change.
        throw FileError.unreadable(path: journal.path, reason: String(describing: error))
      }
    }
  }

  func reload() throws {
    // The old state goes before the new one is read, not after; without a journal, a reload
    // that fails here is made again in full by the next call, never built on half a state.
    state = StoreState()
    disk.journal = nil
    disk.needsRepair = false
    let snapshot = try readSnapshot()
    state = StoreState(records: snapshot?.records ?? RecordTable(), outbox: snapshot?.outbox ?? [])
    (state.refreshedAt, state.cursor) = (snapshot?.refreshedAt, snapshot?.cursor)
    state.records.keep(options.indexes)
    state.records.forgetWritten()
    disk.generation = try StoreSnapshot<Value>.generation(at: snapshotPath)
    disk.snapshotSize = PrivateFile.size(of: snapshotPath)
    let expected = snapshot?.generation ?? disk.generation ?? 0
    let onDisk = journalGenerations()
    guard !onDisk.isEmpty, !onDisk.contains(expected) else {
      disk.journalGeneration = expected
      disk.journal = try JournalFile(path: journalPath(expected), files: options.files)
      return
    }
    // The snapshot names a journal that is not there: read the ones that are, oldest first.
    StoreDamage.setAside(
      Array("snapshot generation \(expected); journals on disk: \(onDisk)\n".utf8), base: base,
      label: "generation-\(expected)")
    disk.needsRepair = true
    disk.damageWarned = false
    for older in onDisk.dropLast() {
      try apply(JournalFile(path: journalPath(older), files: options.files))
    }
    disk.journalGeneration = onDisk[onDisk.count - 1]
    disk.journal = try JournalFile(path: journalPath(disk.journalGeneration), files: options.files)
  }

  /// The snapshot, or what of a damaged one can be used (the file and each line not used set
  /// aside, the store marked for repair); format 1's file when there is none.
  private func readSnapshot() throws -> StoreSnapshot<Value>? {
    // Every journal line adds at most one change and one value: the tables are sized for
    // all of them while the snapshot is read, never grown (old and new storage at once).
    let journalLines = journalGenerations().reduce(0) {
      $0 + JournalFile.lineCount(at: journalPath($1))
    }
    let read = try StoreSnapshot<Value>.read(
      at: snapshotPath, maxSize: options.maxSnapshotSize, reserving: journalLines,
      piece: options.readPiece)
    switch read {
    case .none: return Self.formatOne(at: base + ".json")
    case .intact(let intact): return intact
    case .damaged(let readable, let header, let bytes, let lines):
      let name = "snapshot-\(header.map(String.init) ?? "x")"
      StoreDamage.setAside(bytes, base: base, label: name)
      // Each line not used, apart, so the report says what it held (a change, a value).
      for (index, line) in lines.enumerated() {
        StoreDamage.setAside(line, base: base, label: "\(name)-line-\(index + 1)")
      }
      disk.needsRepair = true
      disk.damageWarned = false
      return readable
    }
  }
}
