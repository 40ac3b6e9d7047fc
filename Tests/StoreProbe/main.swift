// The local store's crash probe: a writer for the crash tests to kill.
//
//   strata-store-probe enqueue BASE [POINT]   queues change 1, 2, 3, … printing "accepted N"
//                                             once each enqueue has returned
//   strata-store-probe sync BASE [POINT]      syncs BASE's pending changes; the "server"
//                                             appends each sent payload to BASE.sent
//   strata-store-probe fold BASE [POINT]      for N = 1, 2, 3, …: creates value k-N (payload
//                                             N), folds an edit into it (payload N+100000),
//                                             and withdraws it when N % 3 == 0, printing
//                                             "accepted N" once all of that has returned
//
//   strata-store-probe resolve BASE [POINT]   for N = 1, 2, 3, …: queues value k-N (payload N),
//                                             syncs it into a conflict (theirs: "theirs N",
//                                             version vN), and resolves it — mine for an odd N,
//                                             theirs for an even one — printing "accepted N"
//                                             once all of that has returned
//
//   strata-store-probe cache ROOT             keeps answers in an HTTP cache under ROOT (as
//                                             XDG_CACHE_HOME): GET /items/K for K = N % 40,
//                                             each answer a 64 KiB body of one letter,
//                                             printing "stored N" once each fetch returned
//
//   strata-store-probe upload DIRECTORY      sends a multipart form staged in DIRECTORY to a
//                                             server that never answers, printing "staged"
//                                             once the body is on disk and sent
//
// With POINT (append.partial, compact.written, compact.renamed), the probe prints
// "paused at POINT" the first time the store reaches it after 30 enqueues or 10 sends, and
// stops there until killed.
// Compaction thresholds are tiny, so compactions happen every few dozen changes.
import Foundation
import Strata
import StrataConcurrency

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func say(_ line: String) {
  let bytes = Array((line + "\n").utf8)
  _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3,
  ["enqueue", "sync", "fold", "resolve", "cache", "upload"].contains(arguments[1])
else {
  FileHandle.standardError.write(
    Data(
      "usage: strata-store-probe enqueue|sync|fold|resolve BASE [POINT] | cache ROOT | upload DIR\n"
        .utf8))
  exit(2)
}
let base = arguments[2]
if arguments[1] == "upload" {
  do {
    try await UploadProbe.run(staging: base)
  } catch {
    FileHandle.standardError.write(Data("strata-store-probe: \(error)\n".utf8))
  }
  exit(1)
}
if arguments[1] == "cache" {
  do {
    try await CacheProbe.run(root: base)
  } catch {
    FileHandle.standardError.write(Data("strata-store-probe: \(error)\n".utf8))
  }
  exit(1)
}
let done = Lock(0)
if arguments.count > 3 {
  let point = arguments[3]
  let threshold = arguments[1] == "sync" ? 10 : 30
  StoreCrashPoint.hook.withLock {
    $0 = Boxed { reached in
      guard reached == point, done.withLock({ $0 }) >= threshold else { return }
      say("paused at \(point)")
      while true { sleep(1000) }
    }
  }
}
var options = LocalStore<String>.Options()
options.minimumCompactionSize = 2048
// Syncing compacts whenever the log passes 2 KiB, so a 40-change sync compacts several times.
options.compactionRatio = arguments[1] == "sync" ? 0 : 2
options.keptSyncedChanges = 5
let store = LocalStore<String>(path: base, options: options)
do {
  if arguments[1] == "enqueue" {
    var number = 0
    while true {
      number += 1
      let made = number
      try await store.enqueue { _, _ in
        .append(kind: "probe", payload: Data(String(made).utf8), showing: "change \(made)")
      }
      say("accepted \(number)")
      done.withLock { $0 += 1 }
    }
  } else if arguments[1] == "resolve" {
    var number = 0
    while true {
      number += 1
      try await conflictAndResolve(number, in: store)
      say("accepted \(number)")
      done.withLock { $0 += 1 }
    }
  } else if arguments[1] == "fold" {
    var number = 0
    while true {
      number += 1
      try await fold(number, in: store)
      say("accepted \(number)")
      done.withLock { $0 += 1 }
    }
  } else {
    let sent = open(base + ".sent", O_WRONLY | O_CREAT | O_APPEND, 0o600)
    let outcomes = try await store.sync { entry in
      let line = Array((String(decoding: entry.payload, as: UTF8.self) + "\n").utf8)
      _ = line.withUnsafeBytes { write(sent, $0.baseAddress, $0.count) }
      done.withLock { $0 += 1 }
      return .init(key: entry.recordKey ?? entry.idempotencyKey, value: "sent")
    }
    say("synced \(outcomes.count)")
  }
} catch {
  FileHandle.standardError.write(Data("strata-store-probe: \(error)\n".utf8))
  exit(1)
}

/// Creates `k-<number>`, folds an edit into it, and withdraws every third: three writes, each
/// one durable step.
func fold(_ number: Int, in store: LocalStore<String>) async throws {
  let key = "k-\(number)"
  try await store.enqueue(key) { current, _ in
    current == nil
      ? .append(kind: "probe", payload: Data(String(number).utf8), showing: "change \(number)")
      : nil
  }
  try await store.enqueue(key) { _, unsent in
    unsent.map { _ in
      .rewrite(kind: "probe", payload: Data(String(number + 100_000).utf8), showing: "edited")
    }
  }
  guard number % 3 == 0 else { return }
  try await store.enqueue(key) { _, unsent in unsent.map { _ in .discard } }
}

/// Queues `k-<number>`, meets a conflict sending it, and resolves it (mine when odd, theirs
/// when even): three writes, each one durable step.
func conflictAndResolve(_ number: Int, in store: LocalStore<String>) async throws {
  let queued = try await store.enqueue("k-\(number)") { _, _ in
    .append(kind: "probe", payload: Data(String(number).utf8), showing: "change \(number)")
  }
  guard let entry = queued else { return }
  _ = try await store.sync(only: [entry.id]) { _ in
    throw try ChangeConflict(theirs: "theirs \(number)", version: "v\(number)")
  }
  try await store.resolve(entry.id, keeping: number % 2 == 1 ? .mine : .theirs)
}
