import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

/// A live query's window brought up to date from the values that changed answers exactly as
/// the query read again in full, and reads only those values.
@Suite("Query windows")
struct QueryWindowTests {
  private static func record(_ value: Int, at second: Int = 0) -> StoredRecord<Int> {
    StoredRecord(
      value: value, status: value % 5 == 0 ? .pending : .synced,
      updatedAt: Date(timeIntervalSince1970: Double(second)))
  }

  private static func queries() -> [ValueQuery<Int>] {
    [
      ValueQuery(where: { $0 % 3 != 0 }, sortedBy: [.descending { $0 }], limit: 10),
      ValueQuery(sortedBy: [.ascending { $0 % 7 }], offset: 4, limit: 6),
      ValueQuery(where: { $0 % 2 == 0 }, sortedBy: [.ascending { $0 }]),
      ValueQuery(statuses: [.synced], limit: 5),
      ValueQuery(sortedBy: [.descending { $0 }], limit: 0),
    ]
  }

  @Test("a window brought up to date equals the query read in full", arguments: 1...4)
  func reselectMatchesSelect(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var table = RecordTable<Int>()
    for key in 0..<200 { table["k\(key)"] = Self.record(Int.random(in: 0..<500, using: &random)) }
    _ = table.takeWritten()
    let queries = Self.queries()
    var windows = queries.map { table.select($0) }
    var incremental = 0
    for step in 0..<400 {
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        let key = "k\(Int.random(in: 0..<260, using: &random))"
        table[key] =
          Int.random(in: 0..<4, using: &random) == 0
          ? nil : Self.record(Int.random(in: 0..<500, using: &random), at: step)
      }
      let changed = table.takeWritten() ?? []
      for (index, query) in queries.enumerated() {
        let fresh = table.select(query)
        if let updated = table.reselect(query, after: windows[index], changed: changed) {
          incremental += 1
          #expect(updated.map(\.key) == fresh.map(\.key), "step \(step), query \(index)")
          #expect(updated.map(\.record.value) == fresh.map(\.record.value))
        }
        windows[index] = fresh
      }
    }
    // Most changes are told from the values changed; a full window that loses a value
    // without a newcomer to take its place is read again (never guessed).
    #expect(incremental > 400 * queries.count / 2, "\(incremental) of \(400 * queries.count)")
  }

  /// A full window whose last value did not change is brought up to date in place: the
  /// values never read all come after that one.
  @Test("a full window keeps its unchanged last value without a full read")
  func aFullWindowKeepsItsLastValue() throws {
    var table = RecordTable<Int>()
    for value in 1...10 {
      table["k\(value)"] = StoredRecord(
        value: value, status: .synced, updatedAt: Date(timeIntervalSince1970: 0))
    }
    let query = ValueQuery<Int>(sortedBy: [.ascending { $0 }], limit: 3)
    let window = table.select(query)
    _ = table.takeWritten()
    table["k2"] = StoredRecord(value: 0, status: .synced, updatedAt: Date(timeIntervalSince1970: 0))
    let updated = try #require(
      table.reselect(query, after: window, changed: table.takeWritten() ?? []))
    #expect(updated.map(\.record.value) == [0, 1, 3], "k3, the last, unchanged")
    table["k1"] = nil
    #expect(
      table.reselect(query, after: updated, changed: table.takeWritten() ?? []) == nil,
      "one gone and no newcomer: the fourth is not known without a full read")
  }

  @Test("a table says which keys were written, and that it does not know after a rebuild")
  func writtenKeys() {
    var table = RecordTable<Int>()
    table["a"] = Self.record(1)
    table["b"] = Self.record(2)
    table["a"] = nil
    #expect(table.takeWritten() == [StoreKey("a"), StoreKey("b")])
    #expect(table.takeWritten() == [])
    table.removeAll { $0.value == 2 }
    #expect(table.takeWritten() == nil, "a rebuild names no keys")
    for key in 0...256 { table["k\(key)"] = Self.record(key) }
    #expect(table.takeWritten() == nil, "too many to keep")
    table["c"] = Self.record(3)
    table.forgetWritten()
    #expect(table.takeWritten() == nil)
  }

  @Test("the history answers with every key since a version, or says it does not know")
  func history() {
    var history = StoreHistory()
    history.record([StoreKey("a")])
    history.record([])
    #expect(history.version == 1, "a change that touched nothing is no version")
    history.record([StoreKey("b")])
    #expect(history.keys(since: 0) == [StoreKey("a"), StoreKey("b")])
    #expect(history.keys(since: 1) == [StoreKey("b")])
    #expect(history.keys(since: 2) == [])
    #expect(history.keys(since: 3) == nil, "a version this history never had")
    history.record(nil)
    history.record([StoreKey("c")])
    #expect(history.keys(since: 2) == nil, "an unknown change in between")
    #expect(history.keys(since: 3) == [StoreKey("c")])
    for _ in 0..<64 { history.record([StoreKey("d")]) }
    #expect(history.keys(since: 3) == nil, "too long ago to be kept")
    #expect(history.keys(since: 4) == [StoreKey("d")], "the last 64 kept")
  }

  /// Through the store: after a write, the window is brought up to date by testing the one
  /// value written, not the other 99; another instance's write, read from the journal,
  /// likewise; a reopen of the files knows nothing and reads them all.
  @Test func aWindowAfterAWriteTestsOnlyTheValuesWritten() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Memo>(path: directory.base)
    try await store.merge(
      (0..<100).map { ("memo-\($0)", Memo(id: "\($0)", text: "memo \($0)")) }, complete: false)
    let tested = Lock(0)
    let query = ValueQuery<Memo>(
      where: { memo in
        tested.withLock { $0 += 1 }
        return memo.text.hasPrefix("memo")
      }, sortedBy: [.ascending(\.id)], limit: 3)
    let first = try await store.window(query, after: nil)
    #expect(tested.withLock { $0 } == 100)
    try await store.merge([("memo-05", Memo(id: "05", text: "memo five"))], complete: false)
    tested.withLock { $0 = 0 }
    let second = try await store.window(query, after: first)
    #expect(second.page(query).map(\.record.value.id) == ["0", "05", "1"])
    #expect(tested.withLock { $0 } == 1, "only the value written")
    let other = LocalStore<Memo>(path: directory.base)
    try await other.merge([("memo-00", Memo(id: "00", text: "memo zero"))], complete: false)
    tested.withLock { $0 = 0 }
    let third = try await store.window(query, after: second)
    #expect(third.page(query).map(\.record.value.id) == ["0", "00", "05"])
    #expect(tested.withLock { $0 } == 1, "the other instance's write, from its journal line")
    tested.withLock { $0 = 0 }
    #expect(try await store.window(query, after: third).version == third.version)
    #expect(tested.withLock { $0 } == 0, "nothing changed: nothing tested")
  }
}
