import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

/// A value is the server's value plus the device's changes on top: the store keeps the
/// server's side apart, through a reopen and a compaction, and goes back to it when the change
/// is dropped.
@Suite("LocalStore: the server's value under the device's change")
struct ServerValueTests {
  /// An edit of a synced value keeps the value it was made from as the server's; after a
  /// compaction and a reopen (a new process's view), a refused edit discarded brings it back.
  @Test(arguments: [false, true])
  func aDiscardAfterACompactionBringsBackTheServersValue(compacted: Bool) async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    try await store.merge([("n-1", Note(id: 1, text: "server"))], complete: true)
    try await DependentChangesTests.edit(store, "n-1", "mine")
    let pending = try #require(try await store.record("n-1"))
    #expect(pending.value.text == "mine" && pending.status == .pending)
    let refusal = NetworkError.server(status: 400).labelled("PUT /n/1")
    _ = try await store.sync(send: ScriptedServer([.failure(refusal)]).send)
    if compacted { try await store.compact() }
    let reopened = LocalStore<Note>(path: directory.base)
    let kept = try #require(try await reopened.record("n-1"))
    #expect(kept.status == .failed && kept.serverValue != nil, "kept apart, on disk")
    let refused = try #require(try await reopened.outbox().first { $0.status == .failed })
    #expect(try await reopened.discard(refused.id))
    let back = try #require(try await reopened.record("n-1"), "not deleted")
    #expect(back.value == Note(id: 1, text: "server") && back.status == .synced)
    #expect(back.serverValue == nil, "shown as the server has it")
  }

  /// Something made here and refused never had a server value: its discard drops it.
  @Test func aRefusedCreationDiscardedLeavesNothing() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let store = LocalStore<Note>(path: directory.base)
    try await store.enqueue("local-a") { _, _ in
      .append(kind: "create", payload: Data("a".utf8), showing: Note(id: 0, text: "a"))
    }
    let refusal = NetworkError.server(status: 400).labelled("POST /n")
    _ = try await store.sync(send: ScriptedServer([.failure(refusal)]).send)
    let refused = try #require(try await store.outbox().first)
    #expect(try await store.discard(refused.id))
    #expect(try await store.record("local-a") == nil)
  }
}
