import DemoKit
import Foundation
import Strata
import StrataSandbox

/// The local store: the cost of one change as its history grows, compaction, and a sync of
/// 10,000 queued posts to the sandbox.
enum OutboxBenchmarks {
  private struct Draft: Codable, Sendable {
    let title: String
    let body: String
    let userId: Int
  }

  private struct Created: Codable, Sendable {
    let id: Int
    let title: String
  }

  private static let encoder = JSONEncoder()

  private static func enqueue(_ store: LocalStore<Created>, _ index: Int) async throws {
    let draft = Draft(title: "Post \(index)", body: "written offline", userId: 1)
    try await store.enqueue { _, _ in
      .append(
        kind: "post.create", payload: try encoder.encode(draft),
        showing: Created(id: 0, title: draft.title))
    }
  }

  /// One enqueue with 10,000 changes queued against one into an empty store (mean µs of
  /// 1,000 each), in `directory`.
  static func enqueueRatio(_ directory: String) async throws -> BenchmarkResult {
    let empty = LocalStore<Created>(path: directory + "/check-empty/posts")
    let emptyCost = try await enqueueCost(empty, from: 0, count: 1_000)
    let full = LocalStore<Created>(path: directory + "/check-full/posts")
    for index in 0..<10_000 { try await enqueue(full, index) }
    let fullCost = try await enqueueCost(full, from: 10_000, count: 1_000)
    return BenchmarkResult(
      name: "Store: enqueue at 10,000 queued / empty",
      compares: String(format: "%.0f µs vs %.0f µs, mean of 1,000", fullCost, emptyCost),
      value: fullCost / emptyCost, unit: "×", target: "≤ 2×")
  }

  /// Mean microseconds of one enqueue (each on disk when it returns), over `count` of them.
  private static func enqueueCost(_ store: LocalStore<Created>, from start: Int, count: Int)
    async throws -> Double
  {
    let started = ContinuousClock.now
    for index in start..<(start + count) { try await enqueue(store, index) }
    return Measure.nanoseconds(ContinuousClock.now - started) / Double(count) / 1_000
  }

  /// A sync of 1,000 edits that carry what they were made from (the value and its version,
  /// for a conflict check: larger lines to write and read) against 1,000 that carry nothing,
  /// each to a send that answers at once — the store's own share — interleaved over 5 rounds,
  /// the median ratio.
  static func versionsRatio(_ directory: String) async throws -> BenchmarkResult {
    var ratios: [Double] = []
    var times: (with: Double, without: Double) = (0, 0)
    for round in 0..<5 {
      let with = try await editSync(directory + "/versions-\(round)/posts", versioned: true)
      let without = try await editSync(directory + "/plain-\(round)/posts", versioned: false)
      ratios.append(with / without)
      times = (times.with + with / 5, times.without + without / 5)
    }
    return BenchmarkResult(
      name: "Store: sync 1,000 edits with versions / without",
      compares: String(
        format: "%.0f ms vs %.0f ms (mean of 5), median of 5 interleaved ratios",
        times.with * 1000, times.without * 1000),
      value: Measure.median(ratios), unit: "×", target: "≤ 1.1×")
  }

  /// Seconds to sync 1,000 edits of values kept synced — with their base and `If-Match`
  /// version when `versioned`, as plain changes otherwise.
  private static func editSync(_ path: String, versioned: Bool) async throws -> Double {
    let store = LocalStore<Created>(path: path)
    let page = (0..<1_000).map { ("post-\($0)", Created(id: $0, title: "Post \($0) as read")) }
    try await store.merge(page, complete: true)
    for (key, value) in page where versioned {
      try await store.put(value, key: key, status: .synced, version: "\"v-\(value.id)\"")
    }
    for (key, value) in page {
      let payload = Data(#"{"title":"edited"}"#.utf8)
      let shown = Created(id: value.id, title: "edited")
      try await store.enqueue(key) { _, _ in
        .append(kind: "post.update", payload: payload, showing: shown)
      }
    }
    let started = ContinuousClock.now
    let outcomes = try await store.sync { entry in
      .init(
        key: entry.recordKey ?? "?", value: Created(id: 0, title: "edited"),
        version: entry.baseVersion.map { _ in "\"v-next\"" })
    }
    guard outcomes.count == 1_000 else { throw BenchCheck.CheckFailure("not all synced") }
    return seconds(ContinuousClock.now - started)
  }

  private static func seconds(_ duration: Duration) -> Double {
    Measure.nanoseconds(duration) / 1e9
  }

  static func run() async throws -> [BenchmarkResult] {
    let directory = NSTemporaryDirectory() + "strata-bench-store-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let sample = 1_000

    let empty = LocalStore<Created>(path: directory + "/empty/posts")
    let emptyCost = try await enqueueCost(empty, from: 0, count: sample)

    let store = LocalStore<Created>(path: directory + "/big/posts")
    let fillStart = ContinuousClock.now
    for index in 0..<10_000 { try await enqueue(store, index) }
    let fillTen = ContinuousClock.now - fillStart
    let tenCost = try await enqueueCost(store, from: 10_000, count: sample)

    let server = SandboxServer()
    try server.start()
    defer { server.stopAndWait() }
    let service = NetworkService(options: NetworkOptions(baseURL: server.baseURL))
    let synced = LocalStore<Created>(path: directory + "/synced/posts")
    for index in 0..<10_000 { try await enqueue(synced, index) }
    let before = try await synced.fileSizes()
    // The store's own share of a sync: the same 10,000 changes to a send that answers at once.
    let local = LocalStore<Created>(path: directory + "/local/posts")
    for index in 0..<10_000 { try await enqueue(local, index) }
    let localStart = ContinuousClock.now
    _ = try await local.sync { entry in
      .init(key: entry.recordKey ?? entry.idempotencyKey, value: Created(id: 1, title: "sent"))
    }
    let localTime = ContinuousClock.now - localStart
    let syncStart = ContinuousClock.now
    let outcomes = try await synced.sync { entry in
      let draft = try JSONDecoder().decode(Draft.self, from: entry.payload)
      return .init(
        key: entry.recordKey ?? entry.idempotencyKey,
        value: try await service.send(
          Request<Created>(
            path: "posts/add", method: .post, body: .json(draft),
            idempotencyKey: entry.idempotencyKey)
        ).value)
    }
    let syncTime = ContinuousClock.now - syncStart
    let sentOnce = outcomes.filter { $0.entry.status == .synced }.count
    let afterSync = try await synced.fileSizes()
    let afterSyncCost = try await enqueueCost(synced, from: 10_000, count: sample)
    let compactStart = ContinuousClock.now
    try await synced.compact()
    let compactTime = ContinuousClock.now - compactStart
    let compacted = try await synced.fileSizes()

    let fillHundredStart = ContinuousClock.now
    for index in 11_000..<100_000 { try await enqueue(store, index) }
    let fillHundred = ContinuousClock.now - fillHundredStart
    let hundredCost = try await enqueueCost(store, from: 100_000, count: sample)
    let reopenStart = ContinuousClock.now
    let reopened = try await LocalStore<Created>(path: directory + "/big/posts").outbox().count
    let reopenTime = ContinuousClock.now - reopenStart
    let probe = reopenInNewProcess(directory + "/big/posts")

    let reopens = try await reopenCosts(directory)

    func ratio(_ cost: Double) -> String {
      String(format: "%.2f× the empty store's", cost / emptyCost)
    }
    return [
      BenchmarkResult(
        name: "Store: enqueue, empty store",
        compares: "mean of \(sample) enqueues, each fdatasync'd before it returns",
        value: emptyCost, unit: "µs", target: "the baseline"),
      BenchmarkResult(
        name: "Store: enqueue at 10,000 queued",
        compares: ratio(tenCost)
          + "; filling 10,000 took \(String(format: "%.1f", seconds(fillTen))) s",
        value: tenCost, unit: "µs", target: "≤ 2× empty"),
      BenchmarkResult(
        name: "Store: enqueue at 100,000 queued",
        compares: ratio(hundredCost)
          + "; 89,000 more took \(String(format: "%.1f", seconds(fillHundred))) s; reopening \(reopened) changes \(String(format: "%.2f", seconds(reopenTime))) s",
        value: hundredCost, unit: "µs", target: "100,000 handled"),
      BenchmarkResult(
        name: "Store: enqueue after syncing 10,000",
        compares: ratio(afterSyncCost), value: afterSyncCost, unit: "µs", target: "≤ 2× empty"),
      BenchmarkResult(
        name: "Store: sync 10,000 queued posts",
        compares:
          "\(sentOnce) synced, \(server.changesDone(path: "/posts/add")) created on the sandbox; each outcome on disk before the next send; the store's share (a send that answers at once): \(String(format: "%.1f", seconds(localTime))) s",
        value: seconds(syncTime), unit: "s", target: "≤ 20 s"),
      BenchmarkResult(
        name: "Store: compaction after the sync",
        compares:
          "files \(before.snapshot + before.journal) B queued → \(afterSync.snapshot + afterSync.journal) B synced (history pruned as the sync ends: the newest 100 changes kept) → \(compacted.snapshot + compacted.journal) B compacted with 1,000 more queued",
        value: Measure.nanoseconds(compactTime) / 1e6, unit: "ms", target: "size follows live data"),
    ] + reopenRows(probe) + reopens + [try await versionsRatio(directory)]
  }

  private static func reopenRows(_ probe: (changes: Int, seconds: Double, peakKilobytes: Int)?)
    -> [BenchmarkResult]
  {
    guard let probe else { return [] }
    return [
      BenchmarkResult(
        name: "Store: reopen \(probe.changes) pending, new process",
        compares: String(
          format: "open + read the outbox took %.2f s (≤ 0.5 s); peak memory of that process",
          probe.seconds),
        value: Double(probe.peakKilobytes) / 1024, unit: "MB", target: "≤ 60 MB")
    ]
  }

  /// Queues `count` changes in the store at `path` (what the reopen rows read).
  static func fill(_ path: String, count: Int) async throws {
    let store = LocalStore<Created>(path: path)
    for index in 0..<count { try await enqueue(store, index) }
  }

  /// Opens the store at `path` and reads its outbox, in this process: "changes seconds peak-KB".
  static func reopenProbe(_ path: String) async throws -> String {
    let start = ContinuousClock.now
    let changes = try await LocalStore<Created>(path: path).outbox().count
    let seconds = Measure.nanoseconds(ContinuousClock.now - start) / 1e9
    return "\(changes) \(seconds) \(Measure.peakResidentKilobytes())"
  }

  /// ``reopenProbe(_:)`` in a new strata-bench process, so the peak memory is the reopen's
  /// alone (nil when it cannot be run).
  private static func reopenInNewProcess(_ path: String) -> (
    changes: Int, seconds: Double, peakKilobytes: Int
  )? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    process.arguments = ["--reopen-probe", path]
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let words = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
    guard process.terminationStatus == 0, words.count == 3, let changes = Int(words[0]),
      let seconds = Double(words[1]), let peak = Int(words[2])
    else { return nil }
    return (changes, seconds, peak)
  }

  /// What every CLI command pays first: a new process opening the store and reading its
  /// values — `strata-demo posts --local` — after 10, 10,000 and 100,000 changes were made and
  /// synced (a sync every 1,000, as an app does). Synced history is pruned at compaction, so
  /// the command should cost the same however long the history.
  static func reopenCosts(_ directory: String, sizes: [Int] = [10, 10_000, 100_000])
    async throws -> [BenchmarkResult]
  {
    guard let binary = CLIBenchmarks.binary, let origin = Origin("http://127.0.0.1:9") else {
      return []
    }
    var costs: [(changes: Int, milliseconds: Double, bytes: Int)] = []
    for changes in sizes {
      let stores = directory + "/history-\(changes)"
      // The demo's own value type: the command reads these files as its posts.
      let store = LocalStore<Post>(
        app: "strata-demo", origin: origin, name: "posts", owner: .device, directory: stores)
      for batch in stride(from: 0, to: changes, by: 1_000) {
        for index in batch..<min(changes, batch + 1_000) {
          let post = Post(id: 0, title: "Post \(index)", body: "written offline", userId: 1)
          try await store.enqueue { _, _ in
            .append(kind: "post.create", payload: try encoder.encode(post), showing: post)
          }
        }
        _ = try await store.sync { entry in
          .init(
            key: "post-\(entry.idempotencyKey)",
            value: Post(id: 1, title: "sent", body: "written offline", userId: 1))
        }
      }
      let files = try await store.fileSizes()
      let arguments = [
        binary, "--api", "http://127.0.0.1:9", "--set", "STORE_DIRECTORY=\(stores)",
        "--log-level", "critical", "posts", "--local",
      ]
      guard let median = CLIBenchmarks.median(arguments, status: 0) else { return [] }
      costs.append((changes, median, files.snapshot + files.journal))
    }
    let base = costs[0].milliseconds
    return costs.map { entry in
      BenchmarkResult(
        name: "Store: CLI command after \(entry.changes) synced",
        compares: String(
          format:
            "strata-demo posts --local, start to exit: %.2f× the 10-change store's; files %d B",
          entry.milliseconds / base, entry.bytes),
        value: entry.milliseconds, unit: "ms", target: "≤ 2× at 100,000")
    }
  }
}
