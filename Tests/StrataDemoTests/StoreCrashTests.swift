import Dispatch
import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if canImport(Darwin)
  import Darwin
  /// `kill(2)`: a bare `kill` here would name the method below.
  private let killProcess = Darwin.kill
#elseif canImport(Glibc)
  import Glibc
  private let killProcess = Glibc.kill
#elseif canImport(Musl)
  import Musl
  private let killProcess = Musl.kill
#endif

/// A writer killed at each step of a write — a record half appended, a new snapshot written
/// but not in place, in place but the old log not removed — loses no change it accepted and
/// resends nothing it recorded as synced. The probe parks itself at the step (a hook in the
/// store), so every kill lands exactly there, every run.
@Suite("The local store survives a writer killed at any step")
struct StoreCrashTests {
  static let points = ["append.partial", "compact.written", "compact.renamed"]

  /// `strata-store-probe` running; its stdout lines collected on a GCD thread.
  final class Probe: Sendable {
    let process = Process()
    private let lines = Lock<[String]>([])

    init(_ arguments: [String]) throws {
      process.executableURL = URL(fileURLWithPath: CLIRunner.built("strata-store-probe"))
      process.arguments = arguments
      let pipe = Pipe()
      process.standardOutput = pipe
      process.standardError = FileHandle.nullDevice
      let reader = pipe.fileHandleForReading
      try CLIRunner.spawn(process)
      DispatchQueue.global().async { [lines] in
        var pending = Data()
        while case let chunk = reader.availableData, !chunk.isEmpty {
          pending += chunk
          while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pending[..<newline], as: UTF8.self)
            lines.withLock { $0.append(line) }
            pending = pending[(newline + 1)...]
          }
        }
        try? reader.close()  // at the end of its output: not held until the Process goes
      }
    }

    var output: [String] { lines.withLock { $0 } }

    /// The numbers it said it accepted (`accepted N`), in order.
    var accepted: [Int] {
      output.compactMap { $0.hasPrefix("accepted ") ? Int($0.dropFirst(9)) : nil }
    }

    /// A probe in `mode` on `base`, killed once it parks at `point`: what it accepted, which
    /// is 1, 2, 3, … and at least 30.
    static func killed(_ mode: String, _ base: String, at point: String) async throws -> [Int] {
      let probe = try Probe([mode, base, point])
      try await probe.kill(whenItSays: "paused at \(point)")
      let accepted = probe.accepted
      #expect(accepted == Array(1...accepted.count) && accepted.count >= 30)
      return accepted
    }

    /// Waits (a hang guard, not a verdict) until the probe says `line`, then kills it.
    func kill(whenItSays line: String) async throws {
      let deadline = ContinuousClock.now + .seconds(120)
      while !output.contains(line), process.isRunning, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(output.contains(line), "the probe said \(output.suffix(3))")
      _ = killProcess(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  /// A private directory; the store's files are `<path>/store.*`.
  struct Directory {
    let path = NSTemporaryDirectory() + "strata-crash-\(UUID().uuidString)"
    var base: String { path + "/store" }
    func cleanUp() { try? FileManager.default.removeItem(atPath: path) }
  }

  static func payloads(_ entries: [OutboxEntry]) -> [Int] {
    entries.compactMap { Int(String(decoding: $0.payload, as: UTF8.self)) }
  }

  @Test(arguments: points)
  func aKilledWriterLosesNoAcceptedChange(_ point: String) async throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    let accepted = try await Probe.killed("enqueue", directory.base, at: point)

    let store = LocalStore<String>(path: directory.base)
    let kept = Self.payloads(try await store.outbox())
    // Half a record never happened; a compaction starts after its change is on disk.
    let inFlight = point == "append.partial" ? [] : [accepted.count + 1]
    #expect(kept == accepted + inFlight)
    #expect(try await store.records().count == kept.count, "the outbox and the values agree")
    try await store.enqueue { _, _ in
      .append(kind: "probe", payload: Data("0".utf8), showing: "after")
    }
    #expect(
      Self.payloads(try await LocalStore<String>(path: directory.base).outbox()) == kept + [0])
  }

  /// A writer folding edits into changes not yet sent, and withdrawing some, killed at each
  /// step: every fold and withdrawal it acknowledged is there, the one in flight is there
  /// whole or not at all, and the values agree with the changes.
  @Test(arguments: points)
  func aKilledFoldLosesNoAcknowledgedStep(_ point: String) async throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    let accepted = try await Probe.killed("fold", directory.base, at: point)
    let store = LocalStore<String>(path: directory.base)
    let kept = Self.payloads(try await store.outbox())
    let acknowledged = accepted.filter { $0 % 3 != 0 }.map { $0 + 100_000 }
    #expect(Array(kept.prefix(acknowledged.count)) == acknowledged, "every fold, in order")
    let next = accepted.count + 1
    let inFlight = Array(kept.dropFirst(acknowledged.count))
    #expect([[], [next], [next + 100_000]].contains(inFlight), "whole or not at all: \(inFlight)")
    #expect(try await store.records().count == kept.count, "the outbox and the values agree")
    for number in accepted {
      let record = try await store.record("k-\(number)")
      #expect(record?.value == (number % 3 == 0 ? nil : "edited"), "k-\(number)")
    }
  }

  /// A writer meeting conflicts and resolving them, killed at each step: every resolution it
  /// acknowledged is there — mine back in the queue on the server's version, theirs kept as
  /// the value — and the one in flight is pending, conflicted or resolved, whole.
  @Test(arguments: points)
  func aKilledResolveLosesNoAcknowledgedStep(_ point: String) async throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    let accepted = try await Probe.killed("resolve", directory.base, at: point)
    let store = LocalStore<String>(path: directory.base)
    let outbox = try await store.outbox()
    let decoder = JSONDecoder()
    for number in accepted {
      let record = try await store.record("k-\(number)")
      guard number % 2 == 1 else {
        #expect(record?.value == "theirs \(number)" && record?.status == .synced, "k-\(number)")
        continue
      }
      #expect(record?.value == "change \(number)" && record?.status == .pending, "k-\(number)")
      let mine = outbox.first { $0.recordKey == "k-\(number)" }
      #expect(mine?.status == .pending && mine?.baseVersion == "v\(number)")
      let base = try mine?.base.map { try decoder.decode(String.self, from: $0) }
      #expect(base == "theirs \(number)", "mine goes on the server's value")
    }
    let next = accepted.count + 1
    if let inFlight = try await store.record("k-\(next)") {
      let whole: Set<String> = ["change \(next)", "theirs \(next)"]
      #expect(whole.contains(inFlight.value), "whole: \(inFlight.value)")
    }
  }

  @Test(arguments: points)
  func aKilledSyncResendsNothingItRecorded(_ point: String) async throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    let store = LocalStore<String>(path: directory.base)
    for number in 1...40 {
      try await store.enqueue { _, _ in
        .append(kind: "probe", payload: Data(String(number).utf8), showing: "\(number)")
      }
    }
    let probe = try Probe(["sync", directory.base, point])
    try await probe.kill(whenItSays: "paused at \(point)")
    let sentBefore = try String(contentsOfFile: directory.base + ".sent", encoding: .utf8)
      .split(separator: "\n").compactMap { Int($0) }
    #expect(sentBefore == Array(1...sentBefore.count) && sentBefore.count >= 10)

    // What waits after the crash: never a change whose outcome was recorded (synced ones may
    // also be compacted away: only the newest 5 are kept).
    let reopened = LocalStore<String>(path: directory.base)
    let waiting = Self.payloads(try await reopened.outbox().filter { $0.status == .pending })
    let sentAfter = Lock<[Int]>([])
    let outcomes = try await reopened.sync { entry in
      sentAfter.withLock { $0.append(Int(String(decoding: entry.payload, as: UTF8.self)) ?? -1) }
      return .init(key: entry.recordKey ?? entry.idempotencyKey, value: "sent")
    }
    #expect(outcomes.allSatisfy { $0.entry.status == .synced })
    let again = sentAfter.withLock { $0 }
    #expect(again == waiting, "in order")
    // Only the change whose outcome the kill cut off may go out twice (with its key).
    let resent = Set(again).intersection(sentBefore)
    #expect(resent.isSubset(of: [sentBefore.last ?? 0]), "resent: \(resent.sorted())")
    #expect(Set(sentBefore).union(again) == Set(1...40), "every change sent")
  }

  /// A process keeping HTTP answers on disk, killed at moments of chance three times (each
  /// run going on where the last stopped, replacing files as well as adding them): what a
  /// reader then gets for each URL is an answer the server gave, whole, or a miss — never a
  /// torn one — the killed writes' leftovers are cleared by the next store, and the cache
  /// keeps working.
  @Test func aKilledCacheWriterLeavesWholeAnswersOrNone() async throws {
    struct Item: Decodable, Sendable {
      let id: Int
      let version: Int
      let fill: String
    }
    let directory = Directory()
    defer { directory.cleanUp() }
    var stored = 0
    for _ in 1...3 {
      let probe = try Probe(["cache", directory.path])
      try await probe.kill(whenItSays: "stored \(Int.random(in: 40...400))")
      stored += probe.output.count { $0.hasPrefix("stored ") }
    }
    #expect(stored >= 120)

    guard let api = URL(string: "https://api.example"), let origin = Origin(api) else { return }
    let environment = ["XDG_CACHE_HOME": directory.path, "HOME": directory.path]
    let cache = HTTPCache(
      app: "strata-probe", origin: origin, maxBytes: 16 << 20, environment: environment)
    let cacheDirectory = try #require(cache.directory)
    var options = NetworkOptions(baseURL: api, retryPolicy: .none)
    options.cache = cache
    let offline = NetworkService(
      options: options,
      transport: MockTransport { _, _ in throw URLError(.notConnectedToInternet) },
      clock: ManualClock())
    var hits = 0
    for id in 0..<40 {
      let item: Item
      do {
        item = try await offline.send(Request<Item>(path: "items/\(id)")).value
      } catch let error as NetworkError {
        // A miss (the first write of this URL was the one cut short) asks the network, which
        // is away; a torn answer would fail to decode instead.
        guard case .transport = error.kind else {
          Issue.record("items/\(id): \(error)")
          continue
        }
        continue
      }
      hits += 1
      let letter = Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(item.version % 26)))
      #expect(item.id == id)
      #expect(item.fill.count == 64 << 10 && item.fill.allSatisfy { $0 == letter })
    }
    #expect(hits >= 39, "every URL but perhaps the one being written first")

    let online = NetworkService(
      options: options,
      transport: MockTransport { request, _ in
        try MockTransport.response(
          request, status: 200, body: #"{"id":99,"version":1,"fill":"b"}"#,
          headers: ["Cache-Control": "max-age=60"])
      }, clock: ManualClock())
    _ = try await online.send(Request<Item>(path: "items/99"))
    // The next process that stores clears what the killed writers left (their processes are
    // gone), listing only the folder of writes in progress.
    let left = (try? FileManager.default.contentsOfDirectory(atPath: cacheDirectory + "/tmp")) ?? []
    #expect(left.isEmpty, "no half-written file stays: \(left)")
    #expect(try await offline.send(Request<Item>(path: "items/99")).value.fill == "b")
  }
}

/// A process killed while its multipart body is staged leaves the file (nothing can remove
/// it then); the next process's first service removes it.
@Suite("A killed upload leaves no staged body past the next start")
struct KilledUploadTests {
  @Test func theNextStartSweepsWhatAKilledUploadLeft() async throws {
    let directory = StoreCrashTests.Directory()
    defer { directory.cleanUp() }
    let staging = directory.path + "/staging"
    let probe = try StoreCrashTests.Probe(["upload", staging])
    try await probe.kill(whenItSays: "staged")
    let left = try FileManager.default.contentsOfDirectory(atPath: staging)
    #expect(left.count == 1 && left.first?.hasPrefix("multipart-") == true, "\(left)")
    var options = NetworkOptions(baseURL: URL(string: "https://api.example")!)
    options.stagingDirectory = staging
    _ = NetworkService(options: options, transport: MockTransport.successful(json: "{}"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: staging).isEmpty)
  }
}
