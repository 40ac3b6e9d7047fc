import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

/// Changes to something whose own creation has not reached the server: folded into it while
/// it is not yet sent, following it (in order, to the server's key) once it is on its way, and
/// failing with it when it fails. Each is one write: a reopened store has it as written.
@Suite("LocalStore: changes that depend on each other")
struct DependentChangesTests {
  /// A server for notes: `create` numbers them (key `n-<id>`; every one `n-<sameID>` when
  /// given, as DummyJSON does), `edit` answers the note under the key the change was sent to
  /// (``OutboxEntry/serverKey``), `delete` answers nothing. Sent lines: `kind key payload`.
  final class NoteServer: Sendable {
    let sent = Lock<[String]>([])
    let refusals = Lock<Set<String>>([])
    let next = Lock(100)
    /// A gate the first create waits at, when given.
    let gate: Gate?
    /// The one id every creation is answered with, when given.
    let sameID: Int?
    init(gate: Gate? = nil, sameID: Int? = nil) { (self.gate, self.sameID) = (gate, sameID) }

    func send(_ entry: OutboxEntry) async throws -> LocalStore<Note>.Settled? {
      let text = String(decoding: entry.payload, as: UTF8.self)
      sent.withLock { $0.append("\(entry.kind) \(entry.serverKey ?? "-") \(text)") }
      if entry.kind == "create", let gate { await gate.pass() }
      if refusals.withLock({ $0.contains(text) }) { throw ChangeRefused("HTTP 400: no \(text)") }
      switch entry.kind {
      case "create":
        let id =
          sameID
          ?? next.withLock {
            $0 += 1
            return $0
          }
        return .init(key: "n-\(id)", value: Note(id: id, text: text))
      case "edit":
        return .init(key: entry.serverKey ?? "?", value: Note(id: 0, text: text))
      default:
        return nil
      }
    }
  }

  static func create(_ store: LocalStore<Note>, _ key: String, _ text: String) async throws {
    try await store.enqueue(key) { current, _ in
      current == nil
        ? .append(kind: "create", payload: Data(text.utf8), showing: Note(id: 0, text: text)) : nil
    }
  }

  /// Enqueues with `plan`, and says what it chose when the store carried it out (nil: nothing
  /// done) — the store itself returns the change, not the caller's plan.
  static func carried(
    _ store: LocalStore<Note>, _ key: String,
    _ plan: @escaping @Sendable (StoredRecord<Note>?, OutboxEntry?) -> OutboxPlan<Note>?
  ) async throws -> OutboxPlan<Note>? {
    let chosen = Lock<OutboxPlan<Note>?>(nil)
    let entry = try await store.enqueue(key) { current, unsent in
      let made = plan(current, unsent)
      chosen.withLock { $0 = made }
      return made
    }
    let made = chosen.withLock { $0 }
    if case .discard? = made { return made }
    return entry == nil ? nil : made
  }

  /// An edit as an app makes one: folded into a change not yet sent, else a change of its own.
  @discardableResult
  static func edit(_ store: LocalStore<Note>, _ key: String, _ text: String) async throws
    -> OutboxPlan<Note>?
  {
    try await carried(store, key) { current, unsent in
      guard let current else { return nil }
      let shown = Note(id: current.value.id, text: text)
      guard let unsent else {
        return .append(kind: "edit", payload: Data(text.utf8), showing: shown)
      }
      return .rewrite(kind: unsent.kind, payload: Data(text.utf8), showing: shown)
    }
  }

  @discardableResult
  static func delete(_ store: LocalStore<Note>, _ key: String) async throws -> OutboxPlan<Note>? {
    try await carried(store, key) { current, unsent in
      guard current != nil else { return nil }
      guard let unsent else { return .append(kind: "delete", payload: Data(), showing: nil) }
      return unsent.kind == "create"
        ? .discard : .rewrite(kind: "delete", payload: Data(), showing: nil)
    }
  }

  @Test func editsOfAnUnsentCreationFoldIntoItAndADeletionWithdrawsIt() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    try await Self.create(store, "local-a", "draft")
    try await Self.edit(store, "local-a", "second")
    try await Self.edit(store, "local-a", "final")
    try await Self.create(store, "local-b", "gone")
    try await Self.edit(store, "local-b", "still gone")
    guard case .discard? = try await Self.delete(store, "local-b") else {
      Issue.record("a deletion of a creation never sent withdraws it")
      return
    }
    // A reopened store has what was written: one change, with the last text.
    let reopened = LocalStore<Note>(path: directory.base)
    #expect(try await reopened.outbox().count == 1)
    #expect(try await reopened.record("local-a")?.value.text == "final")
    #expect(try await reopened.record("local-b") == nil, "withdrawn with its value")
    let server = NoteServer()
    _ = try await reopened.sync(send: server.send)
    #expect(server.sent.withLock { $0 } == ["create local-a final"], "one POST, the new text")
    #expect(try await reopened.record("local-a")?.value == Note(id: 101, text: "final"))
    #expect(try await reopened.record("local-a")?.serverKey == "n-101", "the server's key beside")
    #expect(try await reopened.record("n-101") == nil, "its own key for life")
  }

  /// A change made while the creation is being sent cannot rewrite it: it follows it, goes
  /// to the server's key once the server numbered the note, and the device shows it meanwhile.
  @Test func aChangeMadeWhileTheCreationIsOnItsWayFollowsIt() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    try await Self.create(store, "local-a", "draft")
    let gate = Gate()
    let server = NoteServer(gate: gate)
    let syncing = Task { try await store.sync(send: server.send) }
    try await gate.waitUntilEntered()
    // Another process (its own instance, the same files) edits and deletes meanwhile.
    let other = LocalStore<Note>(path: directory.base)
    guard case .append? = try await Self.edit(other, "local-a", "edited") else {
      Issue.record("in flight: not folded")
      return
    }
    // While any sync runs, no change is rewritten: the deletion follows the edit.
    guard case .append? = try await Self.delete(other, "local-a") else {
      Issue.record("a sync is running: not folded")
      return
    }
    let pending = try await other.outbox()
    #expect(pending.count == 3 && pending[1].after == pending[0].id, "follows the creation")
    #expect(pending[2].after == pending[1].id, "and the edit")
    gate.open()
    _ = try await syncing.value
    #expect(try await store.record("local-a")?.deleted == true, "shown as the followers made it")
    #expect(try await store.record("local-a")?.serverKey == "n-101", "numbered by the server")
    #expect(try await store.record("n-101") == nil)
    #expect(try await store.outbox().compactMap(\.recordKey) == ["local-a", "local-a", "local-a"])
    let outcomes = try await store.sync(send: server.send)
    #expect(outcomes.map(\.entry.status) == [.synced, .synced])
    #expect(
      server.sent.withLock { $0 } == ["create local-a draft", "edit n-101 edited", "delete n-101 "])
    #expect(try await store.record("local-a") == nil, "deleted on the server: gone")
  }

  /// A creation tried once without an outcome (the answer lost, the server down) may be on the
  /// server already, under its key: an edit made afterwards cannot fold into it — a resend under
  /// that key would be answered with the first send's result, and the edit lost — so it follows.
  @Test func anEditAfterATryWithoutAnOutcomeFollowsTheCreation() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    try await Self.create(store, "local-a", "draft")
    let down = ScriptedServer([.failure(URLError(.timedOut))])
    let tried = try await store.sync(send: down.send)
    #expect(tried.map(\.entry.status) == [.pending] && tried.first?.entry.attempts == 1)
    guard case .append? = try await Self.edit(store, "local-a", "edited") else {
      Issue.record("a creation tried once is not rewritten: the edit follows it")
      return
    }
    let pending = try await store.outbox()
    #expect(pending.count == 2 && pending[1].after == pending[0].id)
    let server = NoteServer()
    #expect(try await store.sync(send: server.send).map(\.entry.status) == [.synced, .synced])
    #expect(server.sent.withLock { $0 } == ["create local-a draft", "edit n-101 edited"])
  }

  @Test func aFollowerOfARefusedCreationFailsWithItAndComesBackWithIt() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    try await Self.create(store, "local-a", "bad")
    try await Self.create(store, "local-b", "fine")
    // Made as a sync would have it: the creation sent once (not rewritable), then refused.
    let server = NoteServer()
    server.refusals.withLock { $0 = ["bad"] }
    let first = try await store.sync(send: server.send)
    #expect(first.map(\.entry.status) == [.failed, .synced])
    try await Self.edit(store, "local-a", "bad, edited")
    try await Self.edit(store, "local-a", "bad, edited twice")
    let outcomes = try await store.sync(send: server.send)
    #expect(outcomes.map(\.entry.status) == [.failed], "folded into one edit, which fails")
    #expect(
      outcomes.first?.entry.message == "not sent: the change it follows failed: HTTP 400: no bad")
    #expect(server.sent.withLock { $0.count } == 2, "the follower was never sent")
    #expect(try await store.record("local-a")?.status == .failed)
    // Put back, the creation goes first and its follower to the server's key.
    server.refusals.withLock { $0 = [] }
    #expect(try await store.retryFailed() == 2)
    #expect(try await store.sync(send: server.send).map(\.entry.status) == [.synced, .synced])
    #expect(
      server.sent.withLock { Array($0.suffix(2)) }
        == ["create local-a bad", "edit n-102 bad, edited twice"])
  }

  @Test func discardingARefusedCreationDropsWhatFollowsIt() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    try await Self.create(store, "local-a", "bad")
    let server = NoteServer()
    server.refusals.withLock { $0 = ["bad"] }
    _ = try await store.sync(send: server.send)
    try await Self.edit(store, "local-a", "edited")
    try await Self.delete(store, "local-a")
    let creation = try #require(try await store.outbox().first)
    #expect(try await store.discard(creation.id))
    #expect(try await LocalStore<Note>(path: directory.base).outbox().isEmpty)
    #expect(try await store.record("local-a") == nil)
  }

  /// A deletion the server refuses keeps the value, marked deleted and failed: the app can
  /// show it again with the reason.
  @Test func aRefusedDeletionKeepsTheValue() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    try await store.merge([("n-1", Note(id: 1, text: "theirs"))], complete: true)
    try await Self.delete(store, "n-1")
    #expect(try await store.record("n-1")?.deleted == true)
    let refusing = ScriptedServer([.failure(ChangeRefused("HTTP 404: gone"))])
    _ = try await store.sync(send: refusing.send)
    let kept = try #require(try await store.record("n-1"))
    #expect(kept.deleted && kept.status == .failed && kept.message == "HTTP 404: gone")
  }
}
