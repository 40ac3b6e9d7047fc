import Foundation
import StrataConcurrency
import Testing

@testable import Strata

/// A sync costs one durable write per change, though each attempt is on disk before its send:
/// a change's outcome carries the next one's attempt.
@Suite("LocalStore: one fdatasync per synced change")
struct SyncWritesTests {
  /// The system's files, counting the `fdatasync`s of the journal.
  final class CountingFiles: ForwardingFiles {
    let syncs = Lock(0)
    func sync(_ fd: Int32) -> Bool {
      syncs.withLock { $0 += 1 }
      return SystemFiles().sync(fd)
    }
  }

  @Test func tenIndependentChangesTakeElevenSyncs() async throws {
    let directory = StoreDirectory()
    defer { directory.cleanUp() }
    let files = CountingFiles()
    var options = LocalStore<Note>.Options()
    options.files = files
    let store = LocalStore<Note>(path: directory.base, options: options)
    for index in 1...10 {
      try await store.enqueue("n-\(index)") { _, _ in
        .append(kind: "create", payload: Data(), showing: Note(id: index, text: "x"))
      }
    }
    let before = files.syncs.withLock { $0 }
    let outcomes = try await store.sync(send: ScriptedServer().send)
    #expect(outcomes.map(\.entry.attempts) == Array(repeating: 1, count: 10))
    // The first attempt alone, then each outcome with the next attempt (the last alone).
    #expect(files.syncs.withLock { $0 } - before == 11)
  }
}
