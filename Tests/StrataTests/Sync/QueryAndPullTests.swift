import Foundation
import StrataConcurrency
import Testing

@testable import Strata

/// The device's data is queried where it is kept — the device's changes on top, one account's
/// only — and a pull keeps up with the server: what it no longer lists goes, unless the device
/// changed it (a conflict).
@Suite("SyncedCollection: queries and a pull that keeps up")
struct QueryAndPullTests {
  let directory = StoreDirectory()

  func collection(_ api: MemosAPI, owner: @escaping @Sendable () -> DataOwner = { .device })
    -> SyncedCollection<Memo>
  {
    let base = directory.base
    return SyncedCollection(
      api: api, stores: { LocalStore<Memo>(path: base + "-" + ($0.account ?? "device")) },
      owner: { owner() })
  }

  static let memos = (1...30).map { Memo(id: String(format: "n%02d", $0), text: "memo \($0)") }

  @Test func aQueryFiltersSortsAndPagesTheDevicesValuesWithItsChanges() async throws {
    defer { directory.cleanUp() }
    let api = MemosAPI(Self.memos)
    let memos = collection(api)
    #expect(try await memos.pull().listed == 30)
    _ = try await memos.edit(.server("n05"), offline: true) { _ in Memo.Edit(text: "memo 99") }
    let byText = ValueQuery<Memo>(
      where: { $0.text.hasSuffix("9") }, sortedBy: [.descending(\.text)], limit: 2)
    #expect(try await memos.local(byText).map(\.item.id) == ["n05", "n09"], "the edit shown")
    #expect(try await memos.count(byText) == 4, "9, 19, 29 and the edited 5")
    let second = ValueQuery<Memo>(sortedBy: [.ascending(\.id)], offset: 10, limit: 3)
    #expect(try await memos.local(second).map(\.item.id) == ["n11", "n12", "n13"])
    let pending = ValueQuery<Memo>(statuses: [.pending])
    let waiting = try await memos.local(pending)
    #expect(waiting.map(\.item.id) == ["n05"])
    #expect(waiting.first?.changes.count == 1, "its change listed")
    #expect(try await memos.count(ValueQuery(statuses: [.synced])) == 29)
    let all = try await memos.local(ValueQuery(sortedBy: [.ascending(\.id)]))
    #expect(all.map(\.item.id) == Self.memos.map(\.id))
  }

  @Test func aQueryNeverSeesAnotherAccountsValues() async throws {
    defer { directory.cleanUp() }
    let api = MemosAPI(Self.memos)
    let who = Lock(DataOwner.account("ana"))
    let memos = collection(api) { who.withLock { $0 } }
    _ = try await memos.create(Memo.Draft(text: "ana's"), offline: true)
    who.withLock { $0 = .account("ben") }
    #expect(try await memos.local(ValueQuery(where: { $0.text == "ana's" })).isEmpty)
    #expect(try await memos.count() == 0)
    who.withLock { $0 = .account("ana") }
    #expect(try await memos.count() == 1)
  }

  @Test func aCompletePullRemovesWhatTheServerDeletedAndConflictsAChangedOne() async throws {
    defer { directory.cleanUp() }
    let api = MemosAPI(Array(Self.memos.prefix(5)))
    let memos = collection(api)
    #expect(try await memos.lastPulled() == nil)
    _ = try await memos.pull(pageSize: 2)
    let made = try await memos.create(Memo.Draft(text: "mine"), offline: true)
    _ = try await memos.edit(.server("n02"), offline: true) { _ in Memo.Edit(text: "edited") }
    _ = try await memos.delete(.server("n03"), offline: true)
    for id in ["n01", "n02", "n03"] {
      try await api.delete(id: id, idempotencyKey: "elsewhere \(id)", ifMatch: nil)
    }
    let pull = try await memos.pull(pageSize: 2)
    #expect(pull == .init(listed: 2, complete: true, removed: 2, conflicted: 1))
    #expect(try await memos.lastPulled() != nil)
    let left = try await memos.local(ValueQuery(sortedBy: [.ascending(\.id)]))
    #expect(left.map(\.item.id) == ["", "n02", "n04", "n05"], "made here stays; n01, n03 gone")
    #expect(left.first?.localId == made.localId)
    let edited = try #require(left.first { $0.item.id == "n02" })
    #expect(edited.status == .conflicted)
    #expect(edited.message == "deleted on the server since this change was made")
    let changes = try await memos.changes(to: .server("n02"))
    #expect(changes.map(\.status) == [.conflicted])
    #expect(try await memos.outbox().first { $0.recordKey == "memo-n03" }?.status == .synced)
    // Theirs lets it go; nothing is sent for it.
    #expect(try await memos.resolve(.server("n02"), keeping: .theirs))
    #expect(try await memos.local().map(\.item.id).sorted() == ["", "n04", "n05"])
  }

  @Test func aListingThatNeverEndsTakesNothingOut() async throws {
    defer { directory.cleanUp() }
    // This server ignores `skip`: every page is the whole list.
    let api = MemosAPI(Array(Self.memos.prefix(3)))
    api.state.withLock { $0.ignoresPaging = true }
    let memos = collection(api)
    _ = try await memos.pull()
    try await api.delete(id: "n01", idempotencyKey: "elsewhere", ifMatch: nil)
    let pull = try await memos.pull(pageSize: 1)
    #expect(pull == .init(listed: 2, complete: false, removed: 0, conflicted: 0))
    #expect(try await memos.count() == 3, "not a complete listing: n01 stays")
  }

  @Test func aPullKeepsTheServersValueUnderAChangeForADiscard() async throws {
    defer { directory.cleanUp() }
    let api = MemosAPI(Array(Self.memos.prefix(2)))
    let memos = collection(api)
    _ = try await memos.pull()
    let edit = try #require(
      try await memos.edit(.server("n01"), offline: true) { _ in Memo.Edit(text: "mine") })
    _ = try await api.update(
      id: "n01", Memo.Edit(text: "theirs"), idempotencyKey: "elsewhere", ifMatch: nil)
    _ = try await memos.pull()
    let shown = try #require(try await memos.local(ValueQuery(where: { $0.id == "n01" })).first)
    #expect(shown.item.text == "mine", "the change stays on top")
    #expect(shown.server?.text == "theirs", "the server's newest value under it")
    // Refused before any compare: the change is a dead letter, the server's value under it.
    api.fail("latest", with: NetworkError.server(status: 400).labelled("GET /memos/n01"))
    #expect(try await memos.sync().map(\.entry.status) == [.failed])
    let key = try #require(edit.changes.first.flatMap(UUID.init(uuidString:)))
    #expect(try await memos.discard(key))
    #expect(
      try await memos.local(ValueQuery(where: { $0.id == "n01" })).first?.item.text == "theirs")
  }

  @Test func theLastPullIsKeptAcrossACompaction() async throws {
    defer { directory.cleanUp() }
    let store = LocalStore<Memo>(path: directory.base)
    // More than the 250 synced values a compaction keeps as history: a listing is no history.
    let listing = (1...300).map { ("memo-n\($0)", Memo(id: "n\($0)", text: "a")) }
    try await store.merge(listing, complete: true)
    let stamp = try #require(try await store.refreshedAt())
    try await store.compact()
    let reopened = LocalStore<Memo>(path: directory.base)
    let kept = try #require(try await reopened.refreshedAt())
    #expect(abs(kept.timeIntervalSince(stamp)) < 0.001)
    #expect(try await reopened.count() == 300)
  }

  /// One yield for a write in this process, one for a write by another instance (as another
  /// process's), none for a write that leaves the result as it was; the stream ends when
  /// its owner signs out.
  @Test(.timeLimit(.minutes(1)))
  func aLiveQueryYieldsOncePerChangeWhoeverWroteIt() async throws {
    defer { directory.cleanUp() }
    let api = MemosAPI(Array(Self.memos.prefix(3)))
    let who = Lock(DataOwner.account("ana"))
    let memos = collection(api) { who.withLock { $0 } }
    _ = try await memos.pull()
    let query = ValueQuery<Memo>(where: { $0.text.hasPrefix("memo") }, sortedBy: [.ascending(\.id)])
    // Files checked once an hour: only the push can bring this process's write.
    var pushed = await memos.updates(query, checkingEvery: .seconds(3_600)).makeAsyncIterator()
    var results = await memos.updates(query, checkingEvery: .milliseconds(5)).makeAsyncIterator()
    #expect(await pushed.next()?.map(\.item.id) == ["n01", "n02", "n03"])
    #expect(await results.next()?.map(\.item.id) == ["n01", "n02", "n03"])
    _ = try await memos.edit(.server("n01"), offline: true) { _ in Memo.Edit(text: "memo one") }
    #expect(await pushed.next()?.first?.item.text == "memo one", "this process's write, at once")
    #expect(await results.next()?.first?.item.text == "memo one")
    _ = try await memos.create(Memo.Draft(text: "not a match"), offline: true)
    let other = LocalStore<Memo>(path: directory.base + "-ana")
    try await other.merge([("memo-n09", Memo(id: "n09", text: "memo nine"))], complete: false)
    #expect(
      await results.next()?.map(\.item.id) == ["n01", "n02", "n03", "n09"],
      "the other instance's write, and nothing for the write the query does not see")
    who.withLock { $0 = .device }
    #expect(await results.next() == nil, "ended at sign-out")
  }

  /// A store given an index keeps it across a reopen and a compaction, and a query through it
  /// answers as one without it.
  @Test func anIndexIsKeptAcrossAReopenAndACompaction() async throws {
    defer { directory.cleanUp() }
    let byText = ValueIndex<Memo>("text") { $0.text }
    var options = LocalStore<Memo>.Options()
    options.indexes = [byText]
    let store = LocalStore<Memo>(path: directory.base, options: options)
    try await store.merge(Self.memos.map { ("memo-\($0.id)", $0) }, complete: true)
    try await store.compact()
    let reopened = LocalStore<Memo>(path: directory.base, options: options)
    let plain = LocalStore<Memo>(path: directory.base)
    let query = ValueQuery<Memo>(byText.equals("memo 7"))
    #expect(try await reopened.records(query).map(\.key) == ["memo-n07"])
    #expect(try await plain.records(query).map(\.key) == ["memo-n07"], "no index: a scan")
    _ = try await reopened.enqueue("memo-n07") { _, _ in
      .append(kind: "memo.update", payload: Data(), showing: Memo(id: "n07", text: "memo 8"))
    }
    #expect(try await reopened.records(query).isEmpty, "moved to its new value's bucket")
    #expect(try await reopened.count(ValueQuery(byText.equals("memo 8"))) == 2)
  }

  /// Between changes a live query reads nothing: ticks with the files unchanged cost a stamp
  /// each, no read; a tick after another instance wrote reads once and yields.
  @Test(.timeLimit(.minutes(1)))
  func aLiveQueryReadsNothingWhileNothingChanges() async throws {
    defer { directory.cleanUp() }
    let store = LocalStore<Memo>(path: directory.base)
    try await store.merge([("memo-n0", Memo(id: "n0", text: "a"))], complete: false)
    let memos = SyncedCollection(api: MemosAPI(), stores: { _ in store }, owner: { .device })
    let (ticks, tick) = AsyncStream.makeStream(of: Void.self)
    let ending = Task<Void, Never> {}
    var results = await memos.updates(ValueQuery(), ticks: ticks, ending: ending)
      .makeAsyncIterator()
    #expect(await results.next()?.map(\.item.id) == ["n0"])
    let before = await store.reads
    for _ in 0..<20 { tick.yield(()) }
    let other = LocalStore<Memo>(path: directory.base)
    try await other.merge([("memo-n1", Memo(id: "n1", text: "a"))], complete: false)
    tick.yield(())
    #expect(await results.next()?.map(\.item.id).sorted() == ["n0", "n1"])
    // The stamp is looked at for each tick; the store read only for the query after the
    // write (its values, then the changes to them: two reads).
    #expect(await store.reads - before == 2, "no read for a tick that found nothing new")
  }

  /// With no sort keys, the newest change comes first, then by key.
  @Test func withoutSortKeysTheNewestComesFirst() async throws {
    defer { directory.cleanUp() }
    let clock = Lock(Date(timeIntervalSince1970: 1_700_000_000))
    let store = LocalStore<Memo>(path: directory.base, options: .init()) { clock.withLock { $0 } }
    for id in ["a", "b", "c"] {
      try await store.merge([("memo-\(id)", Memo(id: id, text: id))], complete: false)
      clock.withLock { $0 += 1 }
    }
    try await store.merge(
      [("memo-e", Memo(id: "e", text: "e")), ("memo-d", Memo(id: "d", text: "d"))], complete: false)
    #expect(
      try await store.records().map(\.key) == ["memo-d", "memo-e", "memo-c", "memo-b", "memo-a"])
  }
}
