import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

/// A value made on the device keeps its own key for its whole life; the server's id is an
/// attribute beside it, never assumed unique. A change's outcome is its own, and an effect that
/// happened (a deletion whose answer was lost) is not a failure.
@Suite("LocalStore: one identity per value, one outcome per change")
struct IdentityTests {
  typealias Server = DependentChangesTests.NoteServer

  @Test func twoCreationsAnsweredWithOneIdBothStay() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    try await DependentChangesTests.create(store, "local-a", "first")
    try await DependentChangesTests.create(store, "local-b", "second")
    let server = Server(sameID: 151)
    let outcomes = try await store.sync(send: server.send)
    #expect(outcomes.map(\.entry.status) == [.synced, .synced])
    // Reopened in a new process: both, each under its own key, both numbered 151.
    let reopened = LocalStore<Note>(path: directory.base)
    let records = try await reopened.records()
    #expect(records.map(\.key).sorted() == ["local-a", "local-b"])
    #expect(records.allSatisfy { $0.record.serverKey == "n-151" })
    #expect(try await reopened.record("local-a")?.value.text == "first")
    // A page from the server showing n-151 cannot say which: both stay as they are.
    try await reopened.merge([("n-151", Note(id: 151, text: "server"))], complete: true)
    #expect(try await reopened.records().map(\.record.value.text).sorted() == ["first", "second"])
  }

  @Test func anEditByTheSharedServerKeyIsRefusedAndByItsOwnKeyReachesItsValue() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    try await DependentChangesTests.create(store, "local-a", "A")
    try await DependentChangesTests.create(store, "local-b", "B")
    let server = Server(sameID: 151)
    _ = try await store.sync(send: server.send)
    let refusal = await #expect(throws: AmbiguousKey.self) {
      try await DependentChangesTests.edit(store, "n-151", "which?")
    }
    #expect(refusal?.matching == ["local-a", "local-b"])
    #expect(try await store.outbox().count == 2, "nothing was queued")
    try await DependentChangesTests.edit(store, "local-a", "A2")
    let edited = try await store.sync(send: server.send)
    #expect(edited.map(\.entry.recordKey) == ["local-a"], "the outcome is the edit's own")
    #expect(server.sent.withLock { $0.last } == "edit n-151 A2", "to the server's id")
    #expect(try await store.record("local-a")?.value.text == "A2")
    #expect(try await store.record("local-b")?.value.text == "B", "the other is untouched")
  }

  /// A page whose item only one value made here carries: that value takes the server's version,
  /// under its own key; nothing is listed twice.
  @Test func aPageShowingAValueMadeHereRefreshesItInPlace() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    try await DependentChangesTests.create(store, "local-a", "mine")
    _ = try await store.sync(send: Server().send)
    try await store.merge(
      [
        ("n-101", Note(id: 101, text: "as the server has it")), ("n-1", Note(id: 1, text: "x")),
      ], complete: true)
    let records = try await store.records()
    #expect(records.map(\.key).sorted() == ["local-a", "n-1"])
    #expect(try await store.record("local-a")?.value.text == "as the server has it")
  }

  @Test func aSyncOfOneChangeSendsThatChangeAlone() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    try await DependentChangesTests.create(store, "local-a", "A")
    try await DependentChangesTests.create(store, "local-b", "B")
    let server = Server()
    let mine = try #require(try await store.outbox().last)
    let outcomes = try await store.sync(only: [mine.id], send: server.send)
    #expect(outcomes.map(\.entry.id) == [mine.id])
    #expect(server.sent.withLock { $0 } == ["create local-b B"], "never A's")
    #expect(try await store.record("local-a")?.status == .pending)
    // A change that follows one still to go waits for it, unsent.
    let gate = Gate()
    let slow = Server(gate: gate)
    let syncing = Task { try await store.sync(send: slow.send) }
    try await gate.waitUntilEntered()
    try await DependentChangesTests.edit(LocalStore<Note>(path: directory.base), "local-a", "A2")
    let follower = try #require(try await store.outbox().last)
    #expect(follower.after != nil)
    gate.open()
    _ = try await syncing.value
    #expect(
      try await store.sync(only: [follower.id], send: slow.send).map(\.entry.status) == [.synced])
  }

  @Test func aFollowerOfAPendingChangeWaitsInASyncOfItAlone() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    try await DependentChangesTests.create(store, "local-a", "A")
    let server = Server()
    // The creation was sent once and its outcome lost (no rewrite: it follows).
    _ = try await store.sync(send: ScriptedServer([.failure(URLError(.timedOut))]).send)
    try await DependentChangesTests.edit(store, "local-a", "A2")
    let edit = try #require(try await store.outbox().last)
    #expect(edit.after != nil, "the creation was sent once: the edit follows it")
    #expect(try await store.sync(only: [edit.id], send: server.send).isEmpty, "it waits")
    #expect(server.sent.withLock { $0 }.isEmpty)
    #expect(try await store.sync(send: server.send).map(\.entry.status) == [.synced, .synced])
    #expect(server.sent.withLock { $0 } == ["create local-a A", "edit n-101 A2"])
  }

  /// A deletion answered 404 — sent before without a recorded outcome (a lost answer, a killed
  /// process), or deleted by another device — is done: synced, not a dead letter.
  @Test func aResentDeletionAnswered404IsDone() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    try await store.merge([("n-1", Note(id: 1, text: "x"))], complete: true)
    try await DependentChangesTests.delete(store, "n-1")
    let lost = NetworkError(.transport(URLError(.networkConnectionLost)), request: "DELETE /n/1")
    let gone = NetworkError.server(status: 404).labelled("DELETE /n/1")
    _ = try await store.sync(send: ScriptedServer([.failure(lost)]).send)
    #expect(try await store.outbox().first?.status == .pending)
    let outcomes = try await store.sync(send: ScriptedServer([.failure(gone)]).send)
    #expect(outcomes.map(\.entry.status) == [.synced])
    #expect(outcomes.first?.entry.message?.hasPrefix("already gone") == true)
    #expect(try await store.record("n-1") == nil, "deleted")
    // A first send answered 404: another device deleted it. What was asked holds: done.
    try await store.merge([("n-2", Note(id: 2, text: "y"))], complete: true)
    try await DependentChangesTests.delete(store, "n-2")
    let first = try await store.sync(send: ScriptedServer([.failure(gone)]).send)
    #expect(first.map(\.entry.status) == [.synced])
    #expect(first.map(\.entry.attempts) == [1])
    #expect(try await store.record("n-2") == nil, "deleted")
    // An edit answered 404 is a refusal: the item it changes is gone.
    try await store.merge([("n-3", Note(id: 3, text: "z"))], complete: true)
    try await DependentChangesTests.edit(store, "n-3", "z2")
    let missing = NetworkError.server(status: 404).labelled("PUT /n/3")
    let refused = try await store.sync(send: ScriptedServer([.failure(missing)]).send)
    #expect(refused.map(\.entry.status) == [.failed])
  }

  /// A conflict whose server value holds a secret the process knows (a token the server
  /// echoed) is kept without that value: no file but the session's holds a token.
  @Test func aConflictsServerValueHoldingASecretIsNotKept() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let token = "tok-\(UUID().uuidString)-echoed"
    KnownSecrets.register(token)
    let store = LocalStore<Note>(path: directory.base)
    try await store.merge([("n-1", Note(id: 1, text: "x"))], complete: true)
    try await DependentChangesTests.edit(store, "n-1", "mine")
    let outcomes = try await store.sync { _ in
      throw try ChangeConflict(theirs: Note(id: 1, text: token), version: "v2", fields: ["text"])
    }
    #expect(outcomes.map(\.entry.status) == [.conflicted])
    #expect(outcomes.first?.entry.conflict?.theirs == nil)
    #expect(outcomes.first?.entry.conflict?.version == "v2")
    for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/" + file))
      #expect(!String(decoding: bytes, as: UTF8.self).contains(token), "\(file)")
    }
    #expect(try await store.resolve(outcomes[0].entry.id, keeping: .theirs))
    #expect(try await store.record("n-1") == nil, "dropped, for the next page to bring back")
  }

  /// A store written before values kept their own key — moved to the server's key, the local
  /// one beside it — opens with each value back under its own key and its changes with it.
  @Test func aStoreOfTheFormerLayoutIsReadInPlace() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    try await DependentChangesTests.create(store, "local-a", "A")
    var creation = try #require(try await store.outbox().first)
    (creation.status, creation.attempts, creation.recordKey) = (.synced, 1, "n-7")
    let moved = StoredRecord(value: Note(id: 7, text: "A"), status: .synced, updatedAt: Date())
    var edit = OutboxEntry(kind: "edit", payload: Data("A2".utf8), createdAt: Date())
    edit.recordKey = "n-7"
    var shown = moved
    (shown.status, shown.value.text) = (.pending, "A2")
    // As the former build wrote them: the creation's outcome moved the value to the server's
    // key with its own beside it (`localKey`), and the edit after went to the server's key.
    try Self.append(
      .rewrite(entry: creation, record: moved, formerKey: "local-a"), localKey: "local-a",
      to: try #require(directory.logs.first))
    try Self.append(
      .append(entry: edit, record: shown), localKey: "local-a",
      to: try #require(directory.logs.first))
    let reopened = LocalStore<Note>(path: directory.base)
    #expect(try await reopened.records().map(\.key) == ["local-a"])
    let record = try #require(try await reopened.record("local-a"))
    #expect(record.serverKey == "n-7" && record.value.text == "A2" && record.status == .pending)
    #expect(try await reopened.outbox().map(\.recordKey) == ["local-a", "local-a"])
    let server = Server()
    #expect(try await reopened.sync(send: server.send).map(\.entry.status) == [.synced])
    #expect(server.sent.withLock { $0 } == ["edit n-7 A2"])
  }

  /// Appends `change` to a journal as the former build wrote it: its record with `localKey`.
  private static func append(_ change: StoreChange<Note>, localKey: String, to path: String)
    throws
  {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .millisecondsSince1970
    var object = try #require(
      try JSONSerialization.jsonObject(with: try encoder.encode(change)) as? [String: Any])
    let name = try #require(object.keys.first)
    var body = try #require(object[name] as? [String: Any])
    var record = try #require(body["record"] as? [String: Any])
    record["localKey"] = localKey
    body["record"] = record
    object[name] = body
    let line = JournalLines.line(for: try JSONSerialization.data(withJSONObject: object))
    let handle = try #require(FileHandle(forWritingAtPath: path))
    defer { try? handle.close() }
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(line))
  }
}

/// What the snapshot keeps of a value, through a compaction and a reopen.
@Suite("LocalStore: a value's fields through a compaction")
struct CompactedRecordTests {
  @Test func aDeletionWaitingAndItsKeysSurviveACompaction() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    try await store.merge(
      [
        ("n-1", Note(id: 1, text: "going")), ("n-2", Note(id: 2, text: "staying")),
      ], complete: true)
    try await store.put(
      Note(id: 3, text: "numbered"), key: "n-3", status: .synced, version: "\"v3\"")
    try await DependentChangesTests.delete(store, "n-1")
    try await DependentChangesTests.create(store, "local-a", "made here")
    try await store.compact()
    let reopened = LocalStore<Note>(path: directory.base)
    #expect(try await reopened.record("n-1")?.deleted == true, "still going")
    #expect(try await reopened.record("n-2")?.deleted == false)
    #expect(try await reopened.record("n-3")?.version == "\"v3\"")
    #expect(try await reopened.outbox().map(\.recordKey) == ["n-1", "local-a"])
  }

  /// Only a change to the server's value as last seen carries it as its base: one to a value
  /// the device shows as its own (pending, written without a change) carries none.
  @Test func aChangeCarriesItsBaseOnlyFromASyncedValue() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    try await store.put(
      Note(id: 1, text: "server's"), key: "n-1", status: .synced, version: "\"a\"")
    try await store.put(Note(id: 2, text: "device's"), key: "n-2", status: .pending)
    try await DependentChangesTests.edit(store, "n-1", "edited")
    try await DependentChangesTests.edit(store, "n-2", "edited")
    let outbox = try await store.outbox()
    #expect(outbox.map(\.baseVersion) == ["\"a\"", nil])
    #expect(outbox.map { $0.base != nil } == [true, false])
  }
}

@Suite("OutboxEntry: equality over every field")
struct OutboxEntryEqualityTests {
  /// The fields kept apart (server key, base, version, conflict) count in `==` like the rest.
  @Test func entriesDifferingInWhatTheyWereMadeFromAreNotEqual() throws {
    let entry = OutboxEntry(kind: "k", payload: Data(), createdAt: Date(timeIntervalSince1970: 0))
    var based = entry
    based.base = Data("{}".utf8)
    var conflicted = based
    conflicted.conflict = try ChangeConflict(theirs: "theirs", version: "v")
    var other = conflicted
    other.conflict = try ChangeConflict(theirs: "someone else's", version: "v")
    #expect(entry != based && based != conflicted && other != conflicted)
    var keyed = entry
    keyed.serverKey = "n-1"
    #expect(keyed != entry)
    keyed.serverKey = nil
    #expect(keyed == entry, "nothing kept apart: equal again")
  }

  /// Each field kept apart holds its value alone, and survives the line it is written as.
  @Test func eachFieldKeptApartHoldsItsValueAlone() throws {
    let entry = OutboxEntry(kind: "k", payload: Data(), createdAt: Date(timeIntervalSince1970: 0))
    let conflict = try ChangeConflict(theirs: "theirs", version: "v2", fields: ["text"])
    var alone = [entry, entry, entry, entry]
    alone[0].serverKey = "n-1"
    alone[1].base = Data("{}".utf8)
    alone[2].baseVersion = "v1"
    alone[3].conflict = conflict
    #expect(alone[0].serverKey == "n-1" && alone[1].base == Data("{}".utf8))
    #expect(alone[2].baseVersion == "v1" && alone[3].conflict == conflict)
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()
    for one in alone {
      #expect(try decoder.decode(OutboxEntry.self, from: encoder.encode(one)) == one)
      #expect(one != entry)
    }
  }

  /// A change's payload comes back byte for byte and counts in `==`; what a long queue keeps
  /// per change stays compact (the payload in one allocation, a record's one-byte fields
  /// sharing a word), which a reopen of 100,000 changes pays for 100,000 times.
  @Test func aPayloadIsKeptWholeAndCompactly() {
    let json = Data(#"{"title":"A post written offline","body":"with a body","userId":1}"#.utf8)
    let entry = OutboxEntry(kind: "k", payload: json, createdAt: Date(timeIntervalSince1970: 0))
    #expect(entry.payload == json)
    let other = OutboxEntry(
      id: entry.id, kind: "k", payload: Data(json.dropLast()), createdAt: entry.createdAt)
    #expect(other != entry)
    struct Small: Codable, Sendable {
      var id: Int
      var title: String
    }
    #expect(MemoryLayout<StoredRecord<Small>>.size == 48)
    #expect(MemoryLayout<OutboxEntry>.size <= 88)
  }

  /// A page in a journal an earlier build wrote (`replaceSynced`) still replays as it did: a
  /// value made here that the server numbered takes the page's value under its own key, a
  /// synced value the page does not show goes, a pending one stays.
  @Test func aReplacingPageFromAnEarlierBuildStillReplays() {
    let stamp = Date(timeIntervalSince1970: 1_700_000_000)
    var state = StoreState<Note>()
    state.apply(
      .put(
        key: "local-a",
        record: StoredRecord(
          value: Note(id: 0, text: "made here"), status: .synced, updatedAt: stamp,
          serverKey: "n-1")))
    state.apply(
      .put(
        key: "n-2",
        record: StoredRecord(value: Note(id: 2, text: "old"), status: .synced, updatedAt: stamp)))
    state.apply(
      .put(
        key: "n-3",
        record: StoredRecord(value: Note(id: 3, text: "mine"), status: .pending, updatedAt: stamp)))
    state.apply(.replaceSynced(values: ["n-1": Note(id: 1, text: "server")], at: stamp))
    #expect(state.records["local-a"]?.value.text == "server", "carried under its own key")
    #expect(state.records["n-1"] == nil, "not a second copy")
    #expect(state.records["n-2"] == nil, "not on the page")
    #expect(state.records["n-3"]?.value.text == "mine", "a pending value stays")
  }
}
