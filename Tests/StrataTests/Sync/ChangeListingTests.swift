import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

/// An API that lists its changes after a cursor gets a pull of only those: the first one from
/// the start (a complete listing), each later one from the cursor the last kept — in the same
/// write as what it brought, across a compaction and a reopen.
@Suite("SyncedCollection: a pull through a listing of changes")
struct ChangeListingTests {
  let directory = StoreDirectory()

  func collection(_ api: MemosAPI) -> SyncedCollection<Memo> {
    let base = directory.base
    return SyncedCollection(
      api: api, stores: { _ in LocalStore<Memo>(path: base) }, owner: { .device })
  }

  static let memos = (1...6).map { Memo(id: "n\($0)", text: "memo \($0)") }

  func listingChanges(_ perListing: Int = 10) -> MemosAPI {
    let api = MemosAPI(Self.memos)
    api.state.withLock { $0.changesPerListing = perListing }
    return api
  }

  @Test func thePullAfterTheFirstReadsOnlyWhatChanged() async throws {
    defer { directory.cleanUp() }
    let api = listingChanges()
    let store = LocalStore<Memo>(path: directory.base)
    try await store.merge([("memo-n99", Memo(id: "n99", text: "long gone"))], complete: false)
    let memos = collection(api)
    let first = try await memos.pull()
    #expect(first == .init(listed: 6, complete: true, removed: 1, conflicted: 0))
    #expect(try await store.changeCursor() == "0")
    _ = try await api.update(id: "n2", Memo.Edit(text: "two"), idempotencyKey: "a")
    try await api.delete(id: "n3", idempotencyKey: "b")
    _ = try await api.create(Memo.Draft(text: "seven"), idempotencyKey: "c")
    let second = try await memos.pull()
    #expect(second == .init(listed: 2, complete: false, removed: 1, conflicted: 0))
    #expect(api.calls.filter { $0.hasPrefix("changes") } == ["changes -", "changes 0"])
    #expect(!api.calls.contains("items"), "no page read")
    let shown = try await memos.local(ValueQuery(sortedBy: [.ascending(\.id)]))
    #expect(shown.map(\.item.id) == ["n1", "n2", "n4", "n5", "n6", "n7"])
    #expect(shown[1].item.text == "two")
    #expect(try await store.changeCursor() == "3")
    #expect(try await memos.pull() == .init(listed: 0, complete: false, removed: 0, conflicted: 0))
  }

  @Test func aDeletionThereOfAnItemChangedHereIsAConflict() async throws {
    defer { directory.cleanUp() }
    let api = listingChanges()
    let memos = collection(api)
    _ = try await memos.pull()
    _ = try await memos.edit(.server("n4"), offline: true) { _ in Memo.Edit(text: "mine") }
    _ = try await memos.delete(.server("n5"), offline: true)
    try await api.delete(id: "n4", idempotencyKey: "a")
    try await api.delete(id: "n5", idempotencyKey: "b")
    #expect(try await memos.pull() == .init(listed: 0, complete: false, removed: 1, conflicted: 1))
    let edited = try #require(try await memos.local().first { $0.item.id == "n4" })
    #expect(edited.status == .conflicted)
    #expect(try await memos.local().allSatisfy { $0.item.id != "n5" }, "its deletion is done")
  }

  @Test func listingsThatSayMoreAreReadInTheSamePull() async throws {
    defer { directory.cleanUp() }
    let api = listingChanges(2)
    let memos = collection(api)
    _ = try await memos.pull()
    for id in ["n1", "n2", "n3", "n4", "n5"] {
      _ = try await api.update(id: id, Memo.Edit(text: "new \(id)"), idempotencyKey: id)
    }
    try await api.delete(id: "n1", idempotencyKey: "gone")
    let pull = try await memos.pull()
    #expect(pull == .init(listed: 4, complete: false, removed: 1, conflicted: 0))
    #expect(api.calls.filter { $0.hasPrefix("changes") }.count == 1 + 3, "0-2, 2-4, 4-6")
    #expect(try await memos.local().map(\.item.text).sorted().first == "memo 6")
  }

  @Test func theCursorIsKeptAcrossACompactionAndAReopen() async throws {
    defer { directory.cleanUp() }
    let api = listingChanges()
    _ = try await collection(api).pull()
    _ = try await api.update(id: "n2", Memo.Edit(text: "two"), idempotencyKey: "a")
    _ = try await collection(api).pull()
    let store = LocalStore<Memo>(path: directory.base)
    try await store.compact()
    let reopened = LocalStore<Memo>(path: directory.base)
    #expect(try await reopened.changeCursor() == "1")
    #expect(try await reopened.refreshedAt() != nil, "beside the time of the complete listing")
    _ = try await collection(api).pull()
    #expect(
      api.calls.filter { $0.hasPrefix("changes") } == ["changes -", "changes 0", "changes 1"])
  }

  /// A server that says more for ever, with the same cursor, ends the pull after
  /// `maxRounds` listings; from the start, a cut listing is not complete and its cursor is
  /// not kept (the next pull starts over), so nothing is taken out on its word.
  @Test func aListingThatNeverEndsIsCut() async throws {
    defer { directory.cleanUp() }
    let api = listingChanges()
    api.state.withLock { $0.hostileCursor = "again" }
    let memos = collection(api)
    let pull = try await memos.pull()
    #expect(pull == .init(listed: 0, complete: false, removed: 0, conflicted: 0))
    #expect(api.calls.count == SyncedCollection<Memo>.maxRounds)
    #expect(try await LocalStore<Memo>(path: directory.base).changeCursor() == nil)
  }

  @Test func aCursorTooLongToKeepIsRefusedAndNotKept() async throws {
    defer { directory.cleanUp() }
    let store = LocalStore<Memo>(path: directory.base)
    let long = String(repeating: "c", count: 2_049)
    await #expect(throws: FileError.self) {
      try await store.merge([], complete: false, cursor: long)
    }
    try await store.merge([], complete: false, cursor: String(repeating: "é", count: 1_024))
    try await store.compact()
    #expect(
      try await LocalStore<Memo>(path: directory.base).changeCursor()
        == String(repeating: "é", count: 1_024), "2,048 bytes: kept whole in the header")
    let api = listingChanges()
    _ = try await collection(api).pull()
    api.state.withLock { $0.hostileCursor = long }
    _ = try await collection(api).pull()
    #expect(try await store.changeCursor() == "0", "the last one kept")
  }
}

/// An API without a listing of changes is read page by page through the network, and the
/// HTTP cache makes a page that has not changed cost a 304 and no decode.
@Suite("SyncedCollection: a pull of unchanged pages")
struct UnchangedPagesTests {
  /// A page of memos that counts how often one is decoded.
  struct MemoPage: Decodable, Sendable {
    static let decodes = Lock(0)
    let memos: [Memo]
    init(from decoder: any Decoder) throws {
      enum Keys: String, CodingKey { case memos }
      memos = try decoder.container(keyedBy: Keys.self).decode([Memo].self, forKey: .memos)
      Self.decodes.withLock { $0 += 1 }
    }
  }

  /// Memos read through a ``NetworkService``: pages only (this test never writes).
  struct PagedMemos: RemoteCollection {
    let network: NetworkService
    func items(limit: Int, skip: Int) async throws -> [Memo] {
      let page = Request<MemoPage>(path: "memos", query: ["limit": "\(limit)", "skip": "\(skip)"])
      return try await network.send(page).value.memos
    }
    struct Unused: Error {}
    func latest(id: String) async throws -> (item: Memo, version: String?) { throw Unused() }
    func create(_ draft: Memo.Draft, idempotencyKey: String) async throws -> Memo {
      throw Unused()
    }
    func update(id: String, _ edit: Memo.Edit, idempotencyKey: String, ifMatch version: String?)
      async throws -> (item: Memo, version: String?)
    { throw Unused() }
    func delete(id: String, idempotencyKey: String, ifMatch version: String?) async throws {
      throw Unused()
    }
  }

  @Test func aRefreshOfUnchangedPagesDecodesNothing() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let notModified = Lock(0)
    // Three memos, two to a page; each page tagged by what it holds, to be asked again
    // every time (`no-cache`), answered 304 when the tag still matches.
    let transport = MockTransport { request, _ in
      let skip =
        request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }?
        .queryItems?.first { $0.name == "skip" }?.value ?? "0"
      let body =
        skip == "0"
        ? #"{"memos":[{"id":"n1","text":"one"},{"id":"n2","text":"two"}]}"#
        : #"{"memos":[{"id":"n3","text":"three"}]}"#
      let tag = "\"page-\(skip)\""
      var headers = ["Cache-Control": "no-cache", "ETag": tag]
      if request.value(forHTTPHeaderField: "If-None-Match") == tag {
        notModified.withLock { $0 += 1 }
        return try MockTransport.response(request, status: 304, body: "", headers: headers)
      }
      headers["Content-Type"] = "application/json"
      return try MockTransport.response(request, status: 200, body: body, headers: headers)
    }
    var options = NetworkOptions(
      baseURL: URL(string: "https://api.example") ?? URL(fileURLWithPath: "/"),
      retryPolicy: .none)
    options.cache = HTTPCache()
    let network = NetworkService(options: options, transport: transport, clock: ManualClock())
    let base = directory.base
    let memos = SyncedCollection(
      api: PagedMemos(network: network), stores: { _ in LocalStore<Memo>(path: base) },
      owner: { .device })
    #expect(try await memos.pull(pageSize: 2).listed == 3)
    #expect(MemoPage.decodes.withLock { $0 } == 2)
    let again = try await memos.pull(pageSize: 2)
    #expect(again == .init(listed: 3, complete: true, removed: 0, conflicted: 0))
    #expect(notModified.withLock { $0 } == 2, "each page asked, and answered 304")
    #expect(MemoPage.decodes.withLock { $0 } == 2, "nothing decoded again")
    #expect(transport.requestCount == 4)
  }
}
