import Foundation
import StrataConcurrency

@testable import Strata

/// A note, numbered by its server with a name (`n1`, `n2`): an id that is not a number.
struct Memo: SyncedItem {
  struct Draft: Codable, Sendable, Equatable { var text: String }
  struct Edit: ItemEdit {
    var text: String?
    func then(_ later: Edit) -> Edit { Edit(text: later.text ?? text) }
    func applied(to memo: Memo) -> Memo { Memo(id: memo.id, text: text ?? memo.text, at: memo.at) }
  }

  var id: String
  var text: String
  /// When it was written: a date, which the store and a plain encoder write differently.
  var at: Date?

  static var itemName: String { "memo" }
  init(id: String, text: String, at: Date? = nil) { (self.id, self.text, self.at) = (id, text, at) }
  init(_ draft: Draft) { self.init(id: "", text: draft.text) }
  var draft: Draft { Draft(text: text) }
}

/// A server of memos in memory that honours `Idempotency-Key` (a repeat gets the first answer)
/// and `If-Match` (a version per memo, 412 when it moved), and records every call. `during`
/// runs inside each write, while it is "at the server".
final class MemosAPI: RemoteCollection {
  struct State {
    var memos: [String: (memo: Memo, version: Int)] = [:]
    var answers: [String: Memo] = [:]
    var calls: [String] = []
    var next = 1
    /// Failures for the next calls whose description starts with the key (`update n1`).
    var failures: [(prefix: String, error: any Error)] = []
    /// Answers every page with the whole list, as a server that ignores `skip` and `limit`.
    var ignoresPaging = false
    /// Lists its changes (``changes(after:)``), this many to a listing; nil: it cannot.
    var changesPerListing: Int?
    /// Every write, in order: the memo's id, and whether it was deleted. A cursor is a count.
    var log: [(id: String, deleted: Bool)] = []
    /// Answers each listing of changes with this cursor and `more`, whatever it was asked.
    var hostileCursor: String?
  }
  let state = Lock(State())
  let during: @Sendable (String) async -> Void
  /// Tags versions weak (`W/"1"`), as Express does every JSON body: `If-Match` never matches.
  let weakTags: Bool

  init(
    _ memos: [Memo] = [], weakTags: Bool = false,
    during: @escaping @Sendable (String) async -> Void = { _ in }
  ) {
    (self.during, self.weakTags) = (during, weakTags)
    state.withLock { state in
      for memo in memos { state.memos[memo.id] = (memo, 1) }
      state.next = memos.count + 1
    }
  }

  var calls: [String] { state.withLock { $0.calls } }

  func fail(_ prefix: String, with error: any Error) {
    state.withLock { $0.failures.append((prefix, error)) }
  }

  /// Records `call`; throws the failure planned for it, if any.
  private func record(_ call: String) throws {
    let failure: (any Error)? = state.withLock { state in
      state.calls.append(call)
      guard let index = state.failures.firstIndex(where: { call.hasPrefix($0.prefix) }) else {
        return nil
      }
      return state.failures.remove(at: index).error
    }
    if let failure { throw failure }
  }

  static func gone(_ method: String, _ id: String) -> NetworkError {
    NetworkError.server(status: 404).labelled("\(method) /memos/\(id)")
  }

  func items(limit: Int, skip: Int) async throws -> [Memo] {
    try record("items")
    return state.withLock { state in
      let all = state.memos.values.map(\.memo).sorted { $0.id < $1.id }
      return state.ignoresPaging ? all : Array(all.dropFirst(skip).prefix(limit))
    }
  }

  func changes(after cursor: String?) async throws -> RemoteChanges<Memo>? {
    guard let perListing = state.withLock({ $0.changesPerListing }) else { return nil }
    try record("changes \(cursor ?? "-")")
    return state.withLock { state in
      if let hostile = state.hostileCursor {
        return RemoteChanges(changed: [], cursor: hostile, more: true)
      }
      guard let cursor, let start = Int(cursor) else {
        let all = state.memos.values.map(\.memo).sorted { $0.id < $1.id }
        return RemoteChanges(changed: all, cursor: "\(state.log.count)")
      }
      let end = min(state.log.count, start + perListing)
      let entries = state.log[min(start, end)..<end]
      let changed = entries.filter { !$0.deleted }.compactMap { state.memos[$0.id]?.memo }
      return RemoteChanges(
        changed: changed, deleted: entries.filter(\.deleted).map(\.id), cursor: "\(end)",
        more: end < state.log.count)
    }
  }

  func latest(id: String) async throws -> (item: Memo, version: String?) {
    try record("latest \(id)")
    guard let found = state.withLock({ $0.memos[id] }) else { throw Self.gone("GET", id) }
    return (found.memo, tag(found.version))
  }

  private func tag(_ version: Int) -> String { (weakTags ? "W/" : "") + "\"\(version)\"" }

  func create(_ draft: Memo.Draft, idempotencyKey: String) async throws -> Memo {
    await during("create")
    try record("create \(draft.text)")
    return state.withLock { state in
      if let first = state.answers[idempotencyKey] { return first }
      let memo = Memo(id: "n\(state.next)", text: draft.text)
      state.next += 1
      state.memos[memo.id] = (memo, 1)
      state.log.append((memo.id, false))
      state.answers[idempotencyKey] = memo
      return memo
    }
  }

  func update(id: String, _ edit: Memo.Edit, idempotencyKey: String, ifMatch version: String?)
    async throws -> (item: Memo, version: String?)
  {
    await during("update")
    try record("update \(id) \(edit.text ?? "-")" + (version.map { " if-match \($0)" } ?? ""))
    return try state.withLock { state in
      guard let found = state.memos[id] else { throw Self.gone("PUT", id) }
      // Compared strongly (RFC 9110 §13.1.1): a weak tag never matches.
      if let version, version.hasPrefix("W/") || version != "\"\(found.version)\"" {
        throw NetworkError.server(status: 412).labelled("PUT /memos/\(id)")
      }
      let memo = edit.applied(to: found.memo)
      state.memos[id] = (memo, found.version + 1)
      state.log.append((id, false))
      return (memo, tag(found.version + 1))
    }
  }

  func delete(id: String, idempotencyKey: String, ifMatch version: String?) async throws {
    await during("delete")
    try record("delete \(id)")
    try state.withLock { state in
      guard state.memos.removeValue(forKey: id) != nil else { throw Self.gone("DELETE", id) }
      state.log.append((id, true))
    }
  }
}
