import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

/// Disks and copies flip bits; servers answer what a client cannot use; years pile up
/// history. The store sets damage aside without widening it, gives up on a change it cannot
/// get through, and forgets what the server already keeps.
@Suite("LocalStore: damage, dead letters, bounded history")
struct StoreDamageTests {
  static func texts(_ entries: [OutboxEntry]) -> [String] {
    entries.map { String(decoding: $0.payload, as: UTF8.self) }
  }

  /// Flips one bit of the byte `plus` bytes past the first `marker` in the file at `path`
  /// (a disk or copy error, not a crash).
  static func flip(_ path: String, at marker: String, plus: Int = 0) throws {
    var bytes = try #require(FileManager.default.contents(atPath: path))
    let found = try #require(bytes.range(of: Data(marker.utf8)), "'\(marker)' in \(path)")
    bytes[found.lowerBound + plus] ^= 0x01
    try bytes.write(to: URL(fileURLWithPath: path))
  }

  /// Five changes, one byte flipped inside the third: the other four are kept and sent, the
  /// third is set aside and reported, and the next writer appends after the damage instead of
  /// cutting the log there (which lost the fourth and fifth).
  @Test func aDamagedRecordIsSetAsideAndTheOnesAfterItAreKept() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    _ = try await LocalStoreTests.queue(
      LocalStore<Note>(path: directory.base), ["one", "two", "three", "four", "five"])
    // "three", base64 in the third record's payload.
    try Self.flip(try #require(directory.logs.first), at: "dGhyZWU=")

    let reader = LocalStore<Note>(path: directory.base)
    #expect(Self.texts(try await reader.outbox()) == ["one", "two", "four", "five"])
    let damage = try await reader.damage()
    #expect(damage.count == 1)
    #expect(damage.first?.contains("a change queued on this device (note.create)") == true)
    #expect(damage.first?.contains(directory.base + ".damaged-notes.log-0-at-") == true)

    _ = try await LocalStoreTests.queue(reader, ["six"])
    let server = ScriptedServer()
    let outcomes = try await LocalStore<Note>(path: directory.base).sync(send: server.send)
    #expect(outcomes.map(\.entry.status) == [.synced, .synced, .synced, .synced, .synced])
    #expect(server.sent.withLock { $0 } == ["one", "two", "four", "five", "six"])
    #expect(try await LocalStore<Note>(path: directory.base).damage().count == 1, "still said")
  }

  /// A bit flipped in a snapshot's change line — its JSON still decodes, so a reader that
  /// salvaged it would send what the user never wrote: the line is not used (set aside and
  /// reported as the change it held), the rest of the snapshot and the log are, and the next
  /// write repairs the files.
  @Test func aSnapshotLineFailingItsChecksumIsSetAsideNeverSent() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    _ = try await LocalStoreTests.queue(store, ["T1", "kept in the snapshot"])
    try await store.compact()
    _ = try await LocalStoreTests.queue(store, ["kept in the log"])
    let snapshot = directory.base + ".snapshot"
    // A digit inside the first change's date: the JSON still decodes, the checksum does not.
    try Self.flip(snapshot, at: #""createdAt":"#, plus: 15)

    let reader = LocalStore<Note>(path: directory.base)
    #expect(Self.texts(try await reader.outbox()) == ["kept in the snapshot", "kept in the log"])
    let damage = try await reader.damage()
    #expect(damage.count == 2, "\(damage)")
    #expect(damage.contains { $0.contains("did not match its checksum and was not used") })
    #expect(damage.contains { $0.contains("a change queued on this device (note.create)") })
    let server = ScriptedServer()
    _ = try await reader.sync(send: server.send)
    #expect(server.sent.withLock { $0 } == ["kept in the snapshot", "kept in the log"])
    _ = try await LocalStoreTests.queue(reader, ["after"])  // repairs: a new, whole snapshot
    #expect(
      Self.texts(try await LocalStore<Note>(path: directory.base).outbox())
        == ["kept in the snapshot", "kept in the log", "after"])
    #expect(try await LocalStore<Note>(path: directory.base).damage().count == 2, "still said")
  }

  /// A snapshot cut exactly at a line's end — every line left checks itself — still lacks
  /// lines its header counts: it is damage, reported and set aside, never taken as whole.
  @Test func aSnapshotCutAtALineEndIsDamage() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    _ = try await LocalStoreTests.queue(store, ["first", "second", "lost with the cut"])
    try await store.compact()
    let snapshot = directory.base + ".snapshot"
    let bytes = try #require(FileManager.default.contents(atPath: snapshot))
    let lastLine = try #require(bytes.dropLast().lastIndex(of: UInt8(ascii: "\n")))
    try Data(bytes[...lastLine]).write(to: URL(fileURLWithPath: snapshot))

    let reader = LocalStore<Note>(path: directory.base)
    let damage = try await reader.damage()
    #expect(!damage.isEmpty, "a shortened snapshot is reported")
    #expect(Self.texts(try await reader.outbox()).starts(with: ["first", "second"]))
  }

  /// A snapshot line that no longer decodes loses only what it alone held: the log's changes
  /// are read, new changes are accepted, and the loss is said.
  @Test func anUnreadableSnapshotStillLetsTheLogAndNewChangesThrough() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    _ = try await LocalStoreTests.queue(store, ["lost with the snapshot"])
    try await store.compact()
    _ = try await LocalStoreTests.queue(store, ["kept in the log"])
    let snapshot = directory.base + ".snapshot"
    // The first line's JSON opens with `{`, after the checksum and a space: it no longer decodes.
    try Self.flip(snapshot, at: "\n", plus: 10)

    let reader = LocalStore<Note>(path: directory.base)
    #expect(Self.texts(try await reader.outbox()) == ["kept in the log"])
    let damage = try await reader.damage()
    #expect(damage.count == 2 && damage.contains { $0.contains("was not used") }, "\(damage)")
    _ = try await LocalStoreTests.queue(reader, ["new"])
    #expect(
      Self.texts(try await LocalStore<Note>(path: directory.base).outbox())
        == ["kept in the log", "new"])
  }

  /// A header edited to another generation used to make the store ignore its real log.
  @Test func aSnapshotNamingAMissingLogStillReadsTheLogThatIsThere() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    _ = try await LocalStoreTests.queue(store, ["in the snapshot"])
    try await store.compact()
    _ = try await LocalStoreTests.queue(store, ["in log 1"])
    let snapshot = directory.base + ".snapshot"
    var text = String(
      decoding: try #require(FileManager.default.contents(atPath: snapshot)), as: UTF8.self)
    text = text.replacingOccurrences(of: "strata-store 4 1 ", with: "strata-store 4 7 ")
    try Data(text.utf8).write(to: URL(fileURLWithPath: snapshot))

    let reader = LocalStore<Note>(path: directory.base)
    #expect(Self.texts(try await reader.outbox()) == ["in the snapshot", "in log 1"])
    #expect(try await reader.damage().first?.contains("named another journal") == true)
    _ = try await LocalStoreTests.queue(reader, ["next"])
    #expect(
      Self.texts(try await LocalStore<Note>(path: directory.base).outbox())
        == ["in the snapshot", "in log 1", "next"])
  }

  /// Never write what cannot be read back: a store at its limit refuses a new change before
  /// writing it, and a compaction that would be over the reader's limit is not written — the
  /// change that triggered it is kept, and says so by returning.
  @Test func aStoreAtItsLimitRefusesNewChangesAndNeverWritesAnUnreadableSnapshot() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    var options = LocalStore<Note>.Options()
    options.minimumCompactionSize = 512
    options.compactionRatio = 1
    options.maxSnapshotSize = 600  // below what the changes need: every compaction fails
    options.maxStoreSize = 4_000
    let store = LocalStore<Note>(path: directory.base, options: options)
    var kept: [String] = []
    var refused: (any Error)?
    for index in 0..<100 where refused == nil {
      do {
        _ = try await LocalStoreTests.queue(
          store, ["change \(index) " + String(repeating: "x", count: 40)])
        kept.append("change \(index) " + String(repeating: "x", count: 40))
      } catch {
        refused = error
      }
    }
    guard case .full(let path, let limit) = try #require(refused as? FileError) else {
      Issue.record("expected a full store, got \(String(describing: refused))")
      return
    }
    #expect(path == directory.base && limit == 4_000)
    #expect(kept.count > 5, "every write that returned kept its change")
    #expect(!FileManager.default.fileExists(atPath: directory.base + ".snapshot"))
    #expect(Self.texts(try await LocalStore<Note>(path: directory.base).outbox()) == kept)
  }

  /// A change the server never takes (5xx every time, an answer that cannot be read) is given
  /// up after `maxAttempts` sends over all syncs: `failed`, with the last error, and the queue
  /// moves on; `discard` then drops it and the value shown for it.
  @Test func aChangeSentTooOftenIsADeadLetterAndTheQueueMovesOn() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    let entries = try await LocalStoreTests.queue(store, ["poison", "fine"])
    let down = NetworkError.server(status: 500)
    let server = ScriptedServer([.failure(down), .failure(down), .failure(down)])
    #expect(
      try await store.sync(maxAttempts: 3, send: server.send).map(\.entry.status) == [.pending])
    #expect(
      try await store.sync(maxAttempts: 3, send: server.send).map(\.entry.status) == [.pending])
    let third = try await store.sync(maxAttempts: 3, send: server.send)
    #expect(third.map(\.entry.status) == [.failed, .synced])
    #expect(third[0].entry.attempts == 3)
    #expect(third[0].entry.message?.hasPrefix("given up after 3 attempts: HTTP 500") == true)
    #expect(server.sent.withLock { $0 } == ["poison", "poison", "poison", "fine"])

    #expect(try await store.discard(entries[0].id))
    #expect(try await !store.discard(entries[1].id), "a synced change is not discarded")
    #expect(try await store.outbox().map(\.id) == [entries[1].id])
    #expect(try await store.record(entries[0].idempotencyKey) == nil)
    #expect(try await LocalStore<Note>(path: directory.base).outbox().map(\.id) == [entries[1].id])
  }

  /// A sync cancelled mid-send (SIGTERM in `sync --watch`) stops there: the change stays
  /// pending (not a dead letter, however often that happens) and nothing more is sent.
  @Test func aCancelledSendStaysPendingAndStopsTheSync() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    _ = try await LocalStoreTests.queue(store, ["in flight", "next"])
    let server = ScriptedServer(Array(repeating: .failure(CancellationError()), count: 9))
    for _ in 0..<6 {
      await #expect(throws: CancellationError.self) {
        _ = try await store.sync(maxAttempts: 2, send: server.send)
      }
    }
    #expect(try await store.outbox().map(\.status) == [.pending, .pending])
    #expect(server.sent.withLock { $0 }.allSatisfy { $0 == "in flight" })
  }

  /// History the server keeps is forgotten at compaction: the newest synced values up to the
  /// count, none older than the age; what waits stays whatever its age.
  @Test func syncedValuesArePrunedByCountAndAgeWhatWaitsStays() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let clock = Lock(Date(timeIntervalSince1970: 1_700_000_000))
    var options = LocalStore<Note>.Options()
    options.keptSyncedRecords = 10
    options.keptSyncedAge = .seconds(3600)
    let store = LocalStore<Note>(path: directory.base, options: options) { clock.withLock { $0 } }
    let waiting = try await LocalStoreTests.queue(store, ["written offline long ago"])
    try await store.merge([(key: "old", value: Note(id: 1, text: "old"))], complete: false)
    clock.withLock { $0 += 7200 }
    for index in 0..<15 {
      try await store.put(Note(id: index, text: "page"), key: "p\(index)", status: .synced)
      clock.withLock { $0 += 1 }
    }
    try await store.compact()
    let keys = Set(
      try await LocalStore<Note>(path: directory.base, options: options).records().map(\.key))
    #expect(keys.contains(waiting[0].idempotencyKey), "a pending change's value stays")
    #expect(!keys.contains("old"), "older than the age")
    #expect(keys == Set([waiting[0].idempotencyKey] + (5..<15).map { "p\($0)" }), "the newest 10")
  }

  /// Pruning forgets only synced changes: every dead letter and every pending change stays,
  /// in order, however many synced ones go around them.
  @Test func pruningKeepsEveryPendingChangeAndDeadLetter() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    var options = LocalStore<Note>.Options()
    options.keptSyncedChanges = 3
    let store = LocalStore<Note>(path: directory.base, options: options)
    _ = try await LocalStoreTests.queue(store, (0..<10).map { "c\($0)" })
    _ = try await store.sync { entry in
      let text = String(decoding: entry.payload, as: UTF8.self)
      if ["c2", "c5"].contains(text) { throw ChangeRefused("no") }
      return .init(key: "k-" + text, value: Note(id: 1, text: text))
    }
    _ = try await LocalStoreTests.queue(store, ["p0", "p1"])
    try await store.compact()
    let outbox = try await LocalStore<Note>(path: directory.base, options: options).outbox()
    let waiting = outbox.filter { $0.status != .synced }.map {
      "\($0.status) " + String(decoding: $0.payload, as: UTF8.self)
    }
    #expect(waiting == ["failed c2", "failed c5", "pending p0", "pending p1"])
    #expect(outbox.filter { $0.status == .synced }.count == 3)
  }

  /// A sync turns many pending changes into history at once: it is pruned then, so the files
  /// after each sync stay the same size however many changes came before.
  @Test func theFilesStayFlatAcrossSyncs() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    var options = LocalStore<Note>.Options()
    options.keptSyncedChanges = 10
    options.keptSyncedRecords = 20
    let store = LocalStore<Note>(path: directory.base, options: options)
    var sizes: [Int] = []
    for batch in 0..<5 {
      _ = try await LocalStoreTests.queue(store, (0..<100).map { "note \(batch) \($0)" })
      _ = try await store.sync { entry in
        .init(key: "note-\(entry.idempotencyKey)", value: Note(id: 1, text: "sent"))
      }
      #expect(try await store.outbox().count == 10)
      #expect(try await store.records().count == 20)
      let files = try await store.fileSizes()
      sizes.append(files.snapshot + files.journal)
    }
    #expect(sizes.dropFirst().allSatisfy { $0 <= sizes[0] + sizes[0] / 10 }, "\(sizes)")
  }

  /// Fails every write of the stores under `directory` with ENOSPC while `full` says so.
  static func fillDisk(
    under directory: StoreDirectory, when full: Lock<Bool>, only suffix: String = ""
  ) {
    StoreCrashPoint.faults.withLock { previous in
      let other = previous?.value
      previous = Boxed { path in
        if path.hasPrefix(directory.path), path.hasSuffix(suffix) || suffix.isEmpty,
          full.withLock({ $0 })
        {
          return ENOSPC
        }
        return other?(path)
      }
    }
  }

  /// A full disk when a compaction writes its snapshot: the change that triggered it was
  /// appended and synced, so the write returns (a retry would duplicate it), and so do the
  /// writes after it; every change is there for the next process.
  @Test func aFullDiskAtCompactionDoesNotFailAKeptChange() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let full = Lock(true)
    Self.fillDisk(under: directory, when: full, only: ".snapshot")
    var options = LocalStore<Note>.Options()
    options.minimumCompactionSize = 2_048
    options.compactionRatio = 1
    let store = LocalStore<Note>(path: directory.base, options: options)
    let texts = (0..<40).map { "change \($0) " + String(repeating: "x", count: 60) }
    _ = try await LocalStoreTests.queue(store, texts)
    #expect(!FileManager.default.fileExists(atPath: directory.base + ".snapshot"))
    #expect(Self.texts(try await LocalStore<Note>(path: directory.base).outbox()) == texts)
    full.withLock { $0 = false }
    // Tried again once the journal has grown a quarter more.
    let after = (0..<20).map { "after \($0) " + String(repeating: "x", count: 60) }
    _ = try await LocalStoreTests.queue(store, after)
    #expect(FileManager.default.fileExists(atPath: directory.base + ".snapshot"), "compacted")
    #expect(Self.texts(try await LocalStore<Note>(path: directory.base).outbox()) == texts + after)
  }

  /// A full disk when a send's outcome is recorded: the sync stops at once and throws (no
  /// other change is sent), and the next sync starts with the change in doubt, same key.
  @Test func aFullDiskDuringASyncStopsItAndTheChangeInDoubtGoesFirst() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let full = Lock(false)
    Self.fillDisk(under: directory, when: full)
    let store = LocalStore<Note>(path: directory.base)
    let entries = try await LocalStoreTests.queue(store, ["a", "b", "c"])
    let keys = Lock<[String]>([])
    let send: @Sendable (OutboxEntry) async throws -> LocalStore<Note>.Settled? = { entry in
      let first = keys.withLock { keys in
        keys.append(entry.idempotencyKey)
        return keys.count == 2
      }
      if first { full.withLock { $0 = true } }  // the disk fills while "b" is on the wire
      return nil
    }
    await #expect(throws: FileError.self) { _ = try await store.sync(send: send) }
    #expect(keys.withLock { $0 } == [entries[0], entries[1]].map(\.idempotencyKey), "c not sent")
    full.withLock { $0 = false }
    let outcomes = try await LocalStore<Note>(path: directory.base).sync(send: send)
    #expect(outcomes.map(\.entry.id) == [entries[1].id, entries[2].id])
    #expect(
      keys.withLock { $0 }.suffix(2) == [entries[1].idempotencyKey, entries[2].idempotencyKey])
  }
}
