import Foundation
import Strata
import StrataConcurrency
import Testing

/// The store's durability, seen: a workload (changes queued, a sync, more changes, with
/// compactions) runs over files that lose power at operation 1, then 2, … up to the last.
/// After every cut a new process (a store on the real files) must find every change whose
/// enqueue returned, and every outcome the sync returned — only what was not acknowledged may
/// be gone. A missing `fdatasync`, or a journal whose directory entry was never synced, fails.
@Suite("LocalStore: a power cut at every step")
struct PowerCutTests {
  struct Acknowledged {
    var queued: [String] = []
    var synced: Set<String> = []
  }

  static func workload(_ base: String, files: PowerCutFiles) async -> Acknowledged {
    var options = LocalStore<Note>.Options()
    options.files = files
    options.minimumCompactionSize = 1_024
    options.compactionRatio = 1
    options.keptSyncedChanges = 50
    let store = LocalStore<Note>(path: base, options: options)
    var done = Acknowledged()
    func queue(_ range: Range<Int>) async throws {
      for index in range {
        let text = "change \(index) " + String(repeating: "-", count: 40)
        _ = try await store.enqueue { _, _ in
          .append(kind: "note.create", payload: Data(text.utf8), showing: Note(id: 0, text: text))
        }
        done.queued.append(text)
      }
    }
    do {
      try await queue(0..<8)
      let outcomes = try await store.sync { entry in
        .init(key: entry.idempotencyKey, value: Note(id: 1, text: "sent"))
      }
      for outcome in outcomes where outcome.entry.status == .synced {
        done.synced.insert(String(decoding: outcome.entry.payload, as: UTF8.self))
      }
      try await queue(8..<16)
    } catch {}  // the power went: the process stops here
    return done
  }

  @Test func everyAcknowledgedChangeSurvivesACutAtAnyStep() async throws {
    let dry = StoreDirectory()
    defer { dry.cleanUp() }
    let counting = PowerCutFiles()
    let complete = await Self.workload(dry.base, files: counting)
    #expect(complete.queued.count == 16 && complete.synced.count == 8)
    let steps = counting.operations
    #expect(steps > 40, "appends, syncs, compactions: \(steps) operations")

    for cut in 1...steps {
      let directory = StoreDirectory()
      defer { directory.cleanUp() }
      let files = PowerCutFiles(cutAt: cut)
      let acknowledged = await Self.workload(directory.base, files: files)
      #expect(files.didCut)
      let outbox = try await LocalStore<Note>(path: directory.base).outbox()
      let found = Dictionary(
        outbox.map { (String(decoding: $0.payload, as: UTF8.self), $0.status) },
        uniquingKeysWith: { first, _ in first })
      for text in acknowledged.queued {
        #expect(found[text] != nil, "cut at step \(cut) of \(steps): lost '\(text)'")
      }
      for text in acknowledged.synced {
        #expect(
          found[text] == .synced,
          "cut at step \(cut): '\(text)' is \(String(describing: found[text]))")
      }
    }
  }
}
