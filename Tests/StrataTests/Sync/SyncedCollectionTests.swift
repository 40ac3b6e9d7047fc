import Foundation
import StrataConcurrency
import Testing

@testable import Strata

/// The library keeps the offline promises for any app's API: a collection of memos (ids that
/// are names, not numbers) over a server in memory, on a store in a directory of its own.
@Suite("SyncedCollection: identity, attempts, deletions, discards over an app's API")
struct SyncedCollectionTests {
  let directory = StoreDirectory()

  func collection(
    _ api: MemosAPI, conflicts: ConflictPolicy = .ask
  ) -> SyncedCollection<Memo> {
    let store = LocalStore<Memo>(path: directory.base)
    return SyncedCollection(
      api: api, stores: { _ in store }, owner: { .device }, conflicts: conflicts)
  }

  /// While a creation is at the server, another process (a fresh store on the same files)
  /// already reads it as sent once: the attempt is on disk before the send.
  @Test func anAttemptIsOnDiskBeforeItsSendGoes() async throws {
    defer { directory.cleanUp() }
    let seen = Lock<[Int]>([])
    let base = directory.base
    let api = MemosAPI { _ in
      let outbox = (try? await LocalStore<Memo>(path: base).outbox()) ?? []
      seen.withLock { $0 += outbox.map(\.attempts) }
    }
    let memos = collection(api)
    for text in ["a", "b", "c"] {
      _ = try await memos.create(Memo.Draft(text: text), offline: true)
    }
    #expect(try await memos.sync().map(\.entry.status) == [.synced, .synced, .synced])
    // Each send saw its own attempt on disk (the second and third written with the outcome
    // before them), and those behind it not yet counted.
    #expect(seen.withLock { $0 } == [1, 0, 0, 1, 1, 0, 1, 1, 1], "counted before each send")
  }

  /// A change sent once (its outcome unknown) is never rewritten: an edit made since is a
  /// change of its own that follows it, and both go, in order, to the number the server gave.
  @Test func anEditAfterASendWithoutOutcomeFollowsIt() async throws {
    defer { directory.cleanUp() }
    let api = MemosAPI()
    let memos = collection(api)
    let made = try await memos.create(Memo.Draft(text: "first"), offline: true)
    let local = try #require(made.localId)
    api.fail("create", with: URLError(.timedOut))
    #expect(try await memos.sync().map(\.entry.status) == [.pending])
    let edited = try #require(
      try await memos.edit(.local(local), offline: true) { _ in Memo.Edit(text: "second") })
    #expect(edited.item.text == "second")
    #expect(try await memos.outbox().count == 2, "not folded into the one sent")
    #expect(try await memos.sync().map(\.entry.status) == [.synced, .synced])
    #expect(api.calls == ["create first", "create first", "update n1 second"])
  }

  /// Two devices delete one memo: the second's read before its write finds it gone (404), and
  /// so does its DELETE — done, not a dead letter; nothing is left on the device.
  @Test func aDeletionOfWhatAnotherDeviceDeletedIsDone() async throws {
    defer { directory.cleanUp() }
    let api = MemosAPI([Memo(id: "n7", text: "x")])
    let memos = collection(api)
    try await memos.keep([Memo(id: "n7", text: "x")])
    _ = try await memos.delete(.server("n7"), offline: true)
    try await api.delete(id: "n7", idempotencyKey: "other device", ifMatch: nil)
    let outcomes = try await memos.sync()
    #expect(outcomes.map(\.entry.status) == [.synced])
    #expect(outcomes.first?.entry.message?.hasPrefix("already gone") == true)
    #expect(api.calls.suffix(2) == ["latest n7", "delete n7"])
    #expect(try await memos.local().isEmpty)
  }

  /// A refused edit, discarded, goes back to the server's value (synced) — for a memo read from
  /// the server and for one made here whose creation went through — never deleting it.
  @Test func discardingARefusedEditBringsBackTheServersValue() async throws {
    defer { directory.cleanUp() }
    let api = MemosAPI([Memo(id: "n1", text: "server")])
    let memos = collection(api)
    try await memos.keep(try await api.items(limit: 10, skip: 0))
    let made = try await memos.create(Memo.Draft(text: "mine"))
    #expect(made.status == .synced)
    for reference in [ItemReference<String>.server("n1"), .local(try #require(made.localId))] {
      let edited = try #require(
        try await memos.edit(reference, offline: true) { _ in Memo.Edit(text: "refused") })
      #expect(edited.server?.text == (reference == .server("n1") ? "server" : "mine"))
      #expect(edited.changes.count == 1)
    }
    api.fail("update", with: NetworkError.server(status: 400).labelled("PUT /memos/n1"))
    api.fail("update", with: NetworkError.server(status: 400).labelled("PUT /memos/n2"))
    let refused = try await memos.sync()
    #expect(refused.map(\.entry.status) == [.failed, .failed])
    for change in refused { #expect(try await memos.discard(change.entry.id)) }
    let shown = try await memos.local().sorted { $0.item.text < $1.item.text }
    #expect(shown.map(\.item.text) == ["mine", "server"])
    #expect(shown.map(\.status) == [.synced, .synced])
    #expect(shown.allSatisfy { $0.changes.isEmpty && $0.server == nil })
  }

  /// A deletion made online: the device forgets the memo (a page had kept it as synced).
  @Test func anOnlineDeletionLeavesNothingOnTheDevice() async throws {
    defer { directory.cleanUp() }
    let api = MemosAPI([Memo(id: "n1", text: "x"), Memo(id: "n2", text: "y")])
    let memos = collection(api)
    _ = try await memos.refresh()
    try await api.delete(id: "n1", idempotencyKey: "k", ifMatch: nil)
    #expect(try await memos.forget(.server("n1")))
    #expect(try await memos.local().map(\.item.id) == ["n2"])
    // A memo with a change still to go is not forgotten: the change meets the deletion.
    _ = try await memos.edit(.server("n2"), offline: true) { _ in Memo.Edit(text: "z") }
    #expect(try await memos.forget(.server("n2")) == false)
  }

  /// The app's policy is applied by the library: `mine` goes again at once, on the version
  /// the 412 brought, and lands.
  @Test func aConflictPolicyOfMineSendsItAgainOnTheirVersion() async throws {
    defer { directory.cleanUp() }
    let api = MemosAPI([Memo(id: "n1", text: "base")])
    let memos = collection(api, conflicts: .always(.mine))
    _ = try await memos.refresh()
    _ = try await memos.edit(.server("n1"), offline: true) { _ in Memo.Edit(text: "mine") }
    _ = try await api.update(id: "n1", Memo.Edit(text: "theirs"), idempotencyKey: "k", ifMatch: nil)
    let outcomes = try await memos.sync()
    #expect(outcomes.map(\.entry.status) == [.synced])
    #expect(try await api.latest(id: "n1").item.text == "mine")
  }

  /// A server whose tags are weak (`W/"…"`): no version to send `If-Match` on, so the edit is
  /// checked by its fields and goes unconditioned — never a 412 on every write.
  @Test func aWeakTagIsNoVersion() async throws {
    defer { directory.cleanUp() }
    let api = MemosAPI([Memo(id: "n1", text: "base")], weakTags: true)
    let memos = collection(api)
    _ = try await memos.refresh()
    _ = try await memos.edit(.server("n1"), offline: true) { _ in Memo.Edit(text: "one") }
    #expect(try await memos.sync().map(\.entry.status) == [.synced])
    _ = try await memos.edit(.server("n1"), offline: true) { _ in Memo.Edit(text: "two") }
    #expect(try await memos.sync().map(\.entry.status) == [.synced])
    #expect(api.calls.filter { $0.hasPrefix("update") } == ["update n1 one", "update n1 two"])
    #expect(try await api.latest(id: "n1").item.text == "two")
  }

  /// Unless asked to keep it offline, a change goes at once — that change alone.
  @Test func aChangeIsSentAtOnceByDefault() async throws {
    defer { directory.cleanUp() }
    let api = MemosAPI([Memo(id: "n1", text: "a"), Memo(id: "n2", text: "b")])
    let memos = collection(api)
    _ = try await memos.refresh()
    _ = try await memos.edit(.server("n2"), offline: true) { _ in Memo.Edit(text: "kept") }
    let edited = try #require(try await memos.edit(.server("n1")) { _ in Memo.Edit(text: "z") })
    #expect(edited.status == .synced && edited.item.text == "z")
    #expect(try await memos.delete(.server("n1")) == .deleted)
    let writes = api.calls.filter { !$0.hasPrefix("latest") }.map {
      $0.split(separator: " ").prefix(3).joined(separator: " ")
    }
    #expect(writes == ["items", "update n1 z", "delete n1"])
    #expect(try await memos.local().map(\.item.id) == ["n2"], "n2's change still waits")
  }

  /// A deletion of a memo the server has not changed since goes, though the memo carries a
  /// date: the server's value now is compared with the one the change was made from as the
  /// store writes values (dates in milliseconds, keys sorted), not as a plain encoder would.
  @Test func anUnchangedItemWithADateIsNoConflict() async throws {
    defer { directory.cleanUp() }
    let at = Date(timeIntervalSince1970: 1_700_000_000.123)
    let api = MemosAPI([Memo(id: "n1", text: "a", at: at)])
    let memos = collection(api)
    _ = try await memos.refresh()
    _ = try await memos.delete(.server("n1"), offline: true)
    #expect(try await memos.sync().map(\.entry.status) == [.synced])
    #expect(try await memos.local().isEmpty)
  }
}
