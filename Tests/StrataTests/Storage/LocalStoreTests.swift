import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

@Suite("DocumentFile and LocalStore")
struct LocalStoreTests {
  struct Note: Codable, Sendable, Equatable {
    var id: Int
    var text: String
  }

  static func temporaryPath() -> String {
    NSTemporaryDirectory() + "strata-store-\(UUID().uuidString)/notes.json"
  }

  @Test func aDocumentRoundTripsPrivatelyAndSaysWhatIsWrong() throws {
    let path = Self.temporaryPath()
    defer {
      try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
    let file = DocumentFile<[Note]>(path: path, version: 2, maxSize: 4096)
    #expect(try file.load() == nil, "no file yet")
    try file.save([Note(id: 1, text: "a")])
    #expect(try file.load() == [Note(id: 1, text: "a")])
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)

    #expect(
      throws: DocumentFile<[Note]>.Failure.unsupportedVersion(path: path, found: 2, expected: 3)
    ) {
      try DocumentFile<[Note]>(path: path, version: 3).load()
    }
    let tooLarge = try #require(throws: DocumentFile<[Note]>.Failure.self) {
      try file.save([Note(id: 2, text: String(repeating: "x", count: 5_000))])
    }
    guard case .tooLarge(path, let size, 4096) = tooLarge, size > 5_000 else {
      Issue.record("expected tooLarge, got \(tooLarge)")
      return
    }
    #expect(try file.load() == [Note(id: 1, text: "a")], "the refused save changed nothing")
    try Data("{\"version\":2,\"document\":[{\"id\":\"one\"}]}".utf8).write(
      to: URL(fileURLWithPath: path))
    #expect(throws: DocumentFile<[Note]>.Failure.self) { try file.load() }
  }

  /// A sender that answers from a script: a `NetworkError` per call, or success.
  final class Server: Sendable {
    let sent = Lock<[String]>([])
    let answers: Lock<[Result<String, NetworkError>]>
    init(_ answers: [Result<String, NetworkError>]) { self.answers = Lock(answers) }
    /// Records the payload; on success the note comes back numbered as the answer says.
    func send(_ entry: OutboxEntry) async throws -> LocalStore<Note>.Settled? {
      let text = String(decoding: entry.payload, as: UTF8.self)
      sent.withLock { $0.append(text) }
      let answer = answers.withLock { $0.isEmpty ? .success("{}") : $0.removeFirst() }
      let fields = try JSONDecoder().decode([String: Int].self, from: Data(try answer.get().utf8))
      return .init(key: entry.idempotencyKey, value: Note(id: fields["id"] ?? 0, text: text))
    }
  }

  @Test func changesAreSentInOrderOnceAndSurviveARestart() async throws {
    let path = Self.temporaryPath()
    defer {
      try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
    let file = DocumentFile<LocalStore<Note>.Contents>(path: path, version: 1)
    let store = LocalStore<Note>(file: file)
    var keys: [String] = []
    for text in ["first", "second", "third", "fourth"] {
      let entry = try await store.enqueue(kind: "note.create", payload: Data(text.utf8))
      try await store.put(Note(id: 0, text: text), key: entry.idempotencyKey, status: .pending)
      keys.append(entry.idempotencyKey)
    }
    // first: accepted; second: refused; third: the server is down — the sync stops there.
    let server = Server([
      .success(#"{"id":11}"#), .failure(.server(status: 400, serverMessage: "no title")),
      .failure(.server(status: 503)),
    ])
    let outcomes = try await store.sync(send: server.send)
    #expect(outcomes.map(\.status) == [.synced, .failed, .pending])
    #expect(
      server.sent.withLock { $0 } == ["first", "second", "third"], "in order; the fourth waits")

    // Another process, later: the same file, a working server.
    let restarted = LocalStore<Note>(file: file)
    let before = try await restarted.outbox()
    #expect(before.map(\.status) == [.synced, .failed, .pending, .pending])
    #expect(before[1].message == "HTTP 400: no title" && before[2].attempts == 1)
    #expect(try await restarted.record(keys[0])?.status == .synced)
    #expect(try await restarted.record(keys[1])?.status == .failed)
    let later = Server([])
    let second = try await restarted.sync(send: later.send)
    #expect(second.map(\.status) == [.synced, .synced])
    #expect(
      later.sent.withLock { $0 } == ["third", "fourth"], "nothing synced or refused is sent again")
    #expect(try await restarted.outbox().map(\.attempts) == [1, 1, 2, 1])
    #expect(try await LocalStore<Note>(file: file).sync(send: later.send).isEmpty)
  }

  @Test func offlineKeepsEverythingPendingAndFreshPagesKeepLocalChanges() async throws {
    let path = Self.temporaryPath()
    defer {
      try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
    let store = LocalStore<Note>(file: DocumentFile(path: path, version: 1))
    let entry = try await store.enqueue(kind: "note.create", payload: Data("x".utf8))
    try await store.put(Note(id: 0, text: "mine"), key: entry.idempotencyKey, status: .pending)
    let offline = Server([.failure(NetworkError(.offline))])
    #expect(try await store.sync(send: offline.send).map(\.status) == [.pending])
    try await store.replaceSynced(with: [("1", Note(id: 1, text: "server"))])
    try await store.replaceSynced(with: [("2", Note(id: 2, text: "newer"))])
    let records = try await store.records()
    #expect(Set(records.map(\.key)) == [entry.idempotencyKey, "2"])
    #expect(records.first { $0.key == "2" }?.record.status == .synced)
  }
}

@Suite("LocalStore: a sync killed halfway")
struct LocalStoreRecoveryTests {
  /// A sync records each outcome in a log before the next send and folds them into the file at
  /// the end; killed in between, the next load applies every complete line (and ignores one a
  /// crash cut short), so a sent change is not sent again.
  @Test func outcomesOfAKilledSyncAreNotLost() async throws {
    let path = LocalStoreTests.temporaryPath()
    defer {
      try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
    let file = DocumentFile<LocalStore<LocalStoreTests.Note>.Contents>(path: path, version: 1)
    let store = LocalStore<LocalStoreTests.Note>(file: file)
    var entries: [OutboxEntry] = []
    for text in ["a", "b", "c"] {
      entries.append(try await store.enqueue(kind: "note.create", payload: Data(text.utf8)))
    }
    // What a killed sync leaves: the file as before, and its log — two whole lines, one cut.
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .millisecondsSince1970
    var log = Data()
    for entry in entries.prefix(2) {
      var sent = entry
      sent.status = .synced
      sent.attempts = 1
      log += try encoder.encode(["entry": sent]) + Data("\n".utf8)
    }
    var cut = entries[2]
    cut.status = .synced
    log += (try encoder.encode(["entry": cut])).prefix(40)
    try log.write(to: URL(fileURLWithPath: path + ".outcomes"))

    let restarted = LocalStore<LocalStoreTests.Note>(file: file)
    #expect(try await restarted.outbox().map(\.status) == [.synced, .synced, .pending])
    #expect(!FileManager.default.fileExists(atPath: path + ".outcomes"), "folded into the file")
    let server = LocalStoreTests.Server([])
    _ = try await restarted.sync(send: server.send)
    #expect(server.sent.withLock { $0 } == ["c"], "only the one whose outcome was lost")
  }
}
