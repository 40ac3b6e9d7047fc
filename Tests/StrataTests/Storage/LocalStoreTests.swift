import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A temporary directory for one store, removed by `cleanUp()`.
struct StoreDirectory {
  let path = NSTemporaryDirectory() + "strata-store-\(UUID().uuidString)"
  var base: String { path + "/notes" }
  func cleanUp() { try? FileManager.default.removeItem(atPath: path) }
  /// Makes the directory as a store would (0700), for a test that writes files into it first.
  func create() throws {
    try FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
  }
  /// The current log file's path.
  var logs: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
      .filter { $0.hasPrefix("notes.log-") }.map { path + "/" + $0 }
  }
}

struct Note: Codable, Sendable, Equatable {
  var id: Int
  var text: String
}

/// A sender that answers from a script: a failure per call, or success.
final class ScriptedServer: Sendable {
  let sent = Lock<[String]>([])
  let answers: Lock<[Result<Int, any Error>]>
  init(_ answers: [Result<Int, any Error>] = []) { self.answers = Lock(answers) }
  /// Records the payload; on success the note comes back numbered as the answer says.
  func send(_ entry: OutboxEntry) async throws -> LocalStore<Note>.Settled? {
    let text = String(decoding: entry.payload, as: UTF8.self)
    sent.withLock { $0.append(text) }
    let answer = answers.withLock { $0.isEmpty ? .success(0) : $0.removeFirst() }
    return .init(
      key: entry.recordKey ?? entry.idempotencyKey, value: Note(id: try answer.get(), text: text))
  }
}

@Suite("LocalStore: kept, sent in order, once")
struct LocalStoreTests {
  static func queue(_ store: LocalStore<Note>, _ texts: [String]) async throws -> [OutboxEntry] {
    var entries: [OutboxEntry] = []
    for text in texts {
      let entry = try await store.enqueue { _, _ in
        .append(kind: "note.create", payload: Data(text.utf8), showing: Note(id: 0, text: text))
      }
      entries.append(try #require(entry))
    }
    return entries
  }

  @Test func changesAreSentInOrderOnceAndSurviveARestart() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    let entries = try await Self.queue(store, ["first", "second", "third", "fourth"])
    #expect(try await store.record(entries[0].idempotencyKey)?.status == .pending, "shown at once")
    // first: accepted; second: refused; third: the server is down — the sync stops there.
    let server = ScriptedServer([
      .success(11), .failure(ChangeRefused("HTTP 400: no title")),
      .failure(NetworkError.server(status: 503)),
    ])
    let outcomes = try await store.sync(send: server.send)
    #expect(outcomes.map(\.entry.status) == [.synced, .failed, .pending])
    #expect(outcomes.first?.settled?.value == Note(id: 11, text: "first"))
    #expect(server.sent.withLock { $0 } == ["first", "second", "third"], "the fourth waits")

    // Another process, later: the same files, a working server.
    let restarted = LocalStore<Note>(path: directory.base)
    let before = try await restarted.outbox()
    #expect(before.map(\.status) == [.synced, .failed, .pending, .pending])
    #expect(before[1].message == "HTTP 400: no title" && before[2].attempts == 1)
    #expect(try await restarted.record(entries[0].idempotencyKey)?.value.id == 11)
    #expect(try await restarted.record(entries[1].idempotencyKey)?.status == .failed)
    let later = ScriptedServer()
    let told = Lock<[String]>([])
    let synced = try await restarted.sync(
      progress: { step, entry in
        told.withLock {
          $0.append("\(step.direction) \(step.completed)/\(step.total ?? -1) \(entry.id)")
        }
      }, send: later.send)
    #expect(synced.map(\.entry.status) == [.synced, .synced])
    #expect(
      told.withLock { $0 } == [
        "sending 0/2 \(entries[2].id)", "sending 1/2 \(entries[3].id)",
      ], "told before each send: how many are done, of the changes pending at the start")
    #expect(later.sent.withLock { $0 } == ["third", "fourth"], "nothing synced or refused again")
    #expect(try await restarted.outbox().map(\.attempts) == [1, 1, 2, 1])
    #expect(try await LocalStore<Note>(path: directory.base).sync(send: later.send).isEmpty)
  }

  @Test func aRefusedChangeGoesBackInItsPlaceWhenAskedTo() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    let entries = try await Self.queue(store, ["a", "b"])
    let server = ScriptedServer([.failure(ChangeRefused("no"))])
    _ = try await store.sync(send: server.send)
    #expect(try await store.record(entries[0].idempotencyKey)?.status == .failed)
    #expect(try await store.retryFailed() == 1)
    #expect(try await store.record(entries[0].idempotencyKey)?.status == .pending)
    #expect(try await store.outbox().map(\.status) == [.pending, .synced])
    #expect(try await store.sync(send: server.send).map(\.entry.status) == [.synced])
    #expect(server.sent.withLock { $0 } == ["a", "b", "a"])
    #expect(try await store.retryFailed() == 0)
  }

  /// Anything but ``ChangeRefused`` — an HTML page that did not decode, a session that could
  /// not be refreshed, a body over the limit, offline — keeps the change pending.
  @Test(arguments: [
    NetworkError(
      .decoding(
        .init(
          status: 200, codingPath: "", reason: "not JSON", bodyExcerpt: "<6 bytes, not JSON>"))),
    NetworkError(.unauthorized(.refreshRejected)), NetworkError(.refreshFailed),
    NetworkError(.responseTooLarge(limit: 10)), NetworkError(.offline),
    NetworkError.server(status: 500), NetworkError.transport(URLError(.timedOut)),
  ])
  func onlyARefusalFailsAChange(_ error: NetworkError) async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    _ = try await Self.queue(store, ["a", "b"])
    let server = ScriptedServer([.failure(error)])
    #expect(try await store.sync(send: server.send).map(\.entry.status) == [.pending])
    #expect(try await store.outbox().map(\.status) == [.pending, .pending])
    #expect(try await store.sync(send: server.send).map(\.entry.status) == [.synced, .synced])
  }

  @Test func offlineKeepsEverythingPendingAndFreshPagesKeepLocalChanges() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    let entry = try await Self.queue(store, ["mine"])[0]
    let offline = ScriptedServer([.failure(NetworkError(.offline))])
    #expect(try await store.sync(send: offline.send).map(\.entry.status) == [.pending])
    try await store.merge([("1", Note(id: 1, text: "server"))], complete: true)
    try await store.merge([("2", Note(id: 2, text: "newer"))], complete: true)
    let records = try await store.records()
    #expect(Set(records.map(\.key)) == [entry.idempotencyKey, "2"])
    #expect(records.first { $0.key == "2" }?.record.status == .synced)
  }

  /// A 9 MB answer is not kept (the change is synced, with a note); the store still loads
  /// and takes changes. A 9 MB change is refused before anything is written.
  @Test func anOversizedAnswerOrChangeNeverBreaksTheStore() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    let entry = try await Self.queue(store, ["small"])[0]
    let huge = String(repeating: "x", count: 9 << 20)
    let outcomes = try await store.sync { entry in
      .init(key: entry.idempotencyKey, value: Note(id: 1, text: huge))
    }
    #expect(outcomes.map(\.entry.status) == [.synced] && outcomes[0].settled == nil)
    #expect(outcomes[0].entry.message?.contains("not kept") == true)
    let reopened = LocalStore<Note>(path: directory.base)
    #expect(try await reopened.record(entry.idempotencyKey)?.value.text == "small")
    await #expect(throws: FileError.self) {
      try await reopened.enqueue { _, _ in
        .append(kind: "note.create", payload: Data(huge.utf8), showing: nil)
      }
    }
    _ = try await Self.queue(reopened, ["after"])
    #expect(try await LocalStore<Note>(path: directory.base).outbox().count == 2)
  }
}

@Suite("LocalStore: a store kept by the previous build")
struct LocalStoreUpgradeTests {
  /// Format 1 (`<path>.json`, one document): its pending change is still sent after an
  /// upgrade, and the first compaction folds the file in and removes it.
  @Test func changesKeptInFormatOneAreStillSent() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    try directory.create()
    let key = UUID()
    let formatOne = """
      {"version":1,"document":{"records":{"\(key.uuidString)":{"value":{"id":0,"text":"old"},\
      "status":"pending","updatedAt":1700000000000}},"outbox":[{"id":"\(key.uuidString)",\
      "kind":"note.create","payload":"b2xk","createdAt":1700000000000,"status":"pending",\
      "attempts":0}]}}
      """
    try Data(formatOne.utf8).write(to: URL(fileURLWithPath: directory.base + ".json"))
    let store = LocalStore<Note>(path: directory.base)
    let server = ScriptedServer([.success(7)])
    #expect(try await store.sync(send: server.send).map(\.entry.status) == [.synced])
    #expect(server.sent.withLock { $0 } == ["old"])
    #expect(try await store.record(key.uuidString)?.value == Note(id: 7, text: "old"))
    try await store.compact()
    #expect(!FileManager.default.fileExists(atPath: directory.base + ".json"))
    #expect(try await LocalStore<Note>(path: directory.base).outbox().map(\.status) == [.synced])
  }

  /// Format 3 (one JSON document after a header with its CRC-32), what the previous build
  /// wrote: read with the journal that continues it, and rewritten as format 4 (a line per
  /// change and per value) at the next compaction.
  @Test func aFormatThreeSnapshotIsReadAndRewrittenAsLines() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    try directory.create()
    let key = UUID()
    let body = Data(
      """
      {"generation":1,"records":{"\(key.uuidString)":{"value":{"id":0,"text":"old"},\
      "status":"pending","updatedAt":1700000000000}},"outbox":[{"id":"\(key.uuidString)",\
      "kind":"note.create","payload":"b2xk","createdAt":1700000000000,"status":"pending",\
      "attempts":0,"recordKey":"\(key.uuidString)"}]}
      """.utf8)
    let header = "strata-store 3 1 \(String(format: "%08x", CRC32.checksum(body)))\n"
    try (Data(header.utf8) + body).write(to: URL(fileURLWithPath: directory.base + ".snapshot"))
    let store = LocalStore<Note>(path: directory.base)
    _ = try await LocalStoreTests.queue(store, ["new"])
    #expect(StoreDamageTests.texts(try await store.outbox()) == ["old", "new"])
    #expect(try await store.damage().isEmpty)

    try await store.compact()
    let rewritten = try #require(FileManager.default.contents(atPath: directory.base + ".snapshot"))
    #expect(String(decoding: rewritten.prefix(20), as: UTF8.self).hasPrefix("strata-store 4 "))
    let reopened = LocalStore<Note>(path: directory.base)
    #expect(StoreDamageTests.texts(try await reopened.outbox()) == ["old", "new"])
    #expect(try await reopened.record(key.uuidString)?.value == Note(id: 0, text: "old"))
  }
}

@Suite("LocalStore: the log, compaction and other processes")
struct LocalStoreJournalTests {
  static var smallCompactions: LocalStore<Note>.Options {
    var options = LocalStore<Note>.Options()
    options.minimumCompactionSize = 4096
    options.compactionRatio = 2
    options.keptSyncedChanges = 5
    return options
  }

  /// A writer killed mid-append leaves half a record: readers ignore it, the next writer cuts
  /// it off before appending, so the new record is not lost behind garbage.
  @Test(arguments: ["half a record", "checksum"])
  func aTornLastRecordIsIgnoredThenCutOff(_ damage: String) async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    _ = try await LocalStoreTests.queue(store, ["a", "b", "c"])
    let log = try #require(directory.logs.first)
    let handle = try #require(FileHandle(forUpdatingAtPath: log))
    if damage == "checksum" {
      // The last record's checksum no longer matches (a write that reached the disk garbled).
      let size = try handle.seekToEnd()
      try handle.seek(toOffset: size - 3)
      try handle.write(contentsOf: Data("Z".utf8))
    } else {
      try handle.seekToEnd()
      try handle.write(contentsOf: Data("0badf00d {\"enqueue\":{\"entr".utf8))
    }
    try handle.close()
    let expected = damage == "checksum" ? ["a", "b"] : ["a", "b", "c"]
    let reader = LocalStore<Note>(path: directory.base)
    #expect(
      try await reader.outbox().map { String(decoding: $0.payload, as: UTF8.self) } == expected)
    _ = try await LocalStoreTests.queue(reader, ["d"])
    let fresh = LocalStore<Note>(path: directory.base)
    #expect(
      try await fresh.outbox().map { String(decoding: $0.payload, as: UTF8.self) }
        == expected + ["d"])
  }

  /// Two instances on one path stand for two processes: each sees what the other wrote, also
  /// across a compaction the other ran (its next change lands in the new log, not the old).
  @Test func anotherProcessesChangesAndCompactionsAreSeen() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let first = LocalStore<Note>(path: directory.base, options: Self.smallCompactions)
    let second = LocalStore<Note>(path: directory.base, options: Self.smallCompactions)
    var expected: [String] = []
    for round in 0..<40 {
      let writer = round.isMultiple(of: 2) ? first : second
      let text = "change \(round) " + String(repeating: "-", count: 100)
      _ = try await LocalStoreTests.queue(writer, [text])
      expected.append(text)
    }
    #expect(directory.logs.count == 1 && !directory.logs[0].hasSuffix(".log-0"), "compacted")
    for store in [first, second, LocalStore<Note>(path: directory.base)] {
      #expect(
        try await store.outbox().map { String(decoding: $0.payload, as: UTF8.self) } == expected)
      #expect(try await store.records().count == 40)
    }
  }

  /// A reopen reads the snapshot and the journal a piece at a time: with pieces smaller than
  /// one line (each read grows to fit it) and lines that straddle pieces, every change and
  /// value comes back in order, and nothing is taken for damage.
  @Test(arguments: [16, 700, 5_000])
  func aReopenReadingPieceByPieceReadsEverything(piece: Int) async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    var options = Self.smallCompactions
    options.readPiece = piece
    let writer = LocalStore<Note>(path: directory.base, options: options)
    let texts = (0..<60).map { "change \($0) " + String(repeating: "=", count: $0 * 7) }
    _ = try await LocalStoreTests.queue(writer, Array(texts[..<40]))
    try await writer.compact()
    _ = try await LocalStoreTests.queue(writer, Array(texts[40...]))
    let before = LocalStore<Note>(path: directory.base, options: options)
    #expect(try await before.outbox().map { String(decoding: $0.payload, as: UTF8.self) } == texts)
    #expect(try await before.records().count == 60)
    _ = try await writer.sync(send: ScriptedServer().send)  // settles: found by identity
    let reader = LocalStore<Note>(path: directory.base, options: options)
    let outbox = try await reader.outbox()
    #expect(outbox.map { String(decoding: $0.payload, as: UTF8.self) } == Array(texts.suffix(5)))
    #expect(outbox.allSatisfy { $0.status == .synced })
    #expect(try await reader.damage().isEmpty)
    _ = try await LocalStoreTests.queue(reader, ["after"])
    #expect(
      try await LocalStore<Note>(path: directory.base).outbox().last.map {
        String(decoding: $0.payload, as: UTF8.self)
      } == "after")
  }

  /// The outbox follows what waits, not the history: a sync that leaves more than twice the
  /// kept synced changes compacts as it ends, keeping only the newest, and the files shrink.
  @Test func historyIsCompactedAway() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base, options: Self.smallCompactions)
    _ = try await LocalStoreTests.queue(store, (0..<60).map { "note \($0)" })
    let before = try await store.fileSizes()
    _ = try await store.sync(send: ScriptedServer().send)
    let after = try await store.fileSizes()
    let outbox = try await store.outbox()
    #expect(outbox.count == 5 && outbox.allSatisfy { $0.status == .synced })
    #expect(outbox.map { String(decoding: $0.payload, as: UTF8.self) }.first == "note 55")
    #expect(after.snapshot + after.journal < before.snapshot + before.journal)
    #expect(after.journal == 0)
    #expect(try await store.records().count == 60, "the values are live data: kept")
    #expect(try await LocalStore<Note>(path: directory.base).outbox().map(\.id) == outbox.map(\.id))
  }

  /// A sync holds the store's sync lock: another sync (another instance, as another process)
  /// throws at once and sends nothing; a change queued meanwhile is kept for the next sync.
  @Test func oneSyncAtATimeAndChangesQueuedMeanwhileWait() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    _ = try await LocalStoreTests.queue(store, ["a", "b"])
    let gate = Gate()
    let server = ScriptedServer()
    let running = Task {
      try await store.sync { entry in
        await gate.pass()
        return try await server.send(entry)
      }
    }
    try await gate.waitUntilEntered()
    let other = LocalStore<Note>(path: directory.base)
    await #expect(throws: FileError.syncInProgress(path: directory.base)) {
      try await other.sync(send: server.send)
    }
    await #expect(throws: FileError.syncInProgress(path: directory.base)) {
      try await store.sync(send: server.send)
    }
    _ = try await LocalStoreTests.queue(other, ["queued meanwhile"])
    gate.open()
    #expect(try await running.value.map(\.entry.status) == [.synced, .synced])
    #expect(server.sent.withLock { $0 } == ["a", "b"])
    #expect(try await other.sync(send: server.send).map(\.entry.status) == [.synced])
    #expect(server.sent.withLock { $0 } == ["a", "b", "queued meanwhile"])
  }

  /// What a sync held mid-way has written: every settled change is whole on disk (complete,
  /// parsable records appended after the queued ones), another store opened on the files sees
  /// it, and the next sync sends only what was left.
  @Test func aSyncHeldMidWayHasWrittenEachSettledChangeWhole() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    _ = try await LocalStoreTests.queue(store, ["first", "second", "third"])
    let log = try #require(directory.logs.first)
    let queued = try String(contentsOfFile: log, encoding: .utf8)
    let gate = Gate()
    let server = ScriptedServer([
      .success(1), .success(2), .failure(NetworkError.server(status: 503)),
    ])
    let running = Task {
      try await store.sync { entry in
        if String(decoding: entry.payload, as: UTF8.self) == "third" { await gate.pass() }
        return try await server.send(entry)
      }
    }
    try await gate.waitUntilEntered()

    let written = try String(contentsOfFile: log, encoding: .utf8)
    #expect(written.hasPrefix(queued), "appended, never rewritten")
    #expect(written.hasSuffix("\n"), "no half record")
    let records = written.dropFirst(queued.count).split(separator: "\n")
    #expect(records.count >= 2, "each settled change written before the next is sent")
    for record in written.split(separator: "\n") {
      let parts = record.split(separator: " ", maxSplits: 1)
      #expect(parts.count == 2 && parts[0].count == 8 && UInt32(parts[0], radix: 16) != nil)
      #expect((try? JSONSerialization.jsonObject(with: Data((parts.last ?? "").utf8))) != nil)
    }
    let other = LocalStore<Note>(path: directory.base)
    #expect(try await other.outbox().map(\.status) == [.synced, .synced, .pending])

    gate.open()
    #expect(try await running.value.map(\.entry.status) == [.synced, .synced, .pending])
    let later = ScriptedServer()
    #expect(try await other.sync(send: later.send).map(\.entry.status) == [.synced])
    #expect(later.sent.withLock { $0 } == ["third"], "only what was left")
  }

  /// A compaction replaces the snapshot by rename: a reader that opened the old one reads it
  /// whole, the file is a new inode, and no temporary file is left.
  @Test func theSnapshotIsReplacedAtomically() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    _ = try await LocalStoreTests.queue(store, ["one"])
    try await store.compact()
    let snapshot = directory.base + ".snapshot"
    let old = try Data(contentsOf: URL(fileURLWithPath: snapshot))
    let reader = open(snapshot, O_RDONLY)
    defer { close(reader) }
    var before = stat()
    stat(snapshot, &before)
    _ = try await LocalStoreTests.queue(store, ["two"])
    try await store.compact()
    var after = stat()
    stat(snapshot, &after)
    #expect(before.st_ino != after.st_ino)
    let heldOpen = FileHandle(fileDescriptor: reader).readDataToEndOfFile()
    #expect(heldOpen == old, "the old snapshot, whole")
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(files.allSatisfy { !$0.contains(".tmp-") }, "\(files)")
  }

  /// What is at the store's paths is checked: a directory or a symbolic link where a file
  /// belongs, a directory others can enter, or a symbolic link as the directory, is a
  /// sentence naming the path and the fix.
  @Test func foreignFilesAtTheStoresPathsAreRefused() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    try directory.create()
    try FileManager.default.createDirectory(
      atPath: directory.base + ".snapshot", withIntermediateDirectories: true)
    let error = await #expect(throws: FileError.self) {
      try await LocalStore<Note>(path: directory.base).outbox()
    }
    #expect(
      error?.description
        == "refusing to use \(directory.base).snapshot: it is a directory, not a regular file; "
        + "move it away")
    try FileManager.default.removeItem(atPath: directory.base + ".snapshot")
    try FileManager.default.createSymbolicLink(
      atPath: directory.base + ".snapshot", withDestinationPath: "/dev/zero")
    let link = await #expect(throws: FileError.self) {
      try await LocalStore<Note>(path: directory.base).outbox()
    }
    #expect(link?.description.contains("a symbolic link") == true)
    try FileManager.default.removeItem(atPath: directory.base + ".snapshot")
    for mode: mode_t in [0o777, 0o755] {
      chmod(directory.path, mode)
      let open = await #expect(throws: FileError.self) {
        try await LocalStore<Note>(path: directory.base).outbox()
      }
      #expect(open?.description.contains("run chmod 700 \(directory.path)") == true)
    }
    chmod(directory.path, 0o700)
    let linked = directory.path + "-link"
    try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: directory.path)
    defer { try? FileManager.default.removeItem(atPath: linked) }
    let throughLink = await #expect(throws: FileError.self) {
      try await LocalStore<Note>(path: linked + "/notes").outbox()
    }
    #expect(throughLink?.description.contains("is a symbolic link") == true)
  }
}
