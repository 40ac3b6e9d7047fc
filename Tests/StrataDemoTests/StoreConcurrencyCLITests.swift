import DemoKit
import Dispatch
import Foundation
import Strata
import StrataSandbox
import Testing

/// The store shared by `strata-demo` processes that overlap: nothing lost, nothing sent twice.
@Suite("strata-demo: processes sharing the local store")
struct StoreConcurrencyCLITests {
  static func queue(_ cli: CLIRunner, _ api: [String], _ title: String) async throws
    -> CLIRunner.Result
  {
    try await cli.run(api + ["post", "create", "--offline", "--title", title, "--body", "b"])
  }

  /// Waits (a hang guard, not a verdict: 60 s was missed at load 12) until the sandbox has
  /// seen `count` post creations.
  static func waitForPosts(_ server: SandboxServer, _ count: Int) async throws {
    let deadline = ContinuousClock.now + .seconds(300)
    while server.journal.count(method: "POST", path: "/posts/add") < count,
      ContinuousClock.now < deadline
    {
      try await Task.sleep(for: .milliseconds(10))
    }
    try #require(server.journal.count(method: "POST", path: "/posts/add") >= count)
  }

  @Test func eightProcessesQueueingAtOnceKeepEightChangesInOrder() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let titles = (1...8).map { "Post \($0)" }
      let results = try await withThrowingTaskGroup(of: CLIRunner.Result.self) { group in
        for title in titles { group.addTask { try await Self.queue(cli, api, title) } }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
      let store = LocalStore<Post>(
        path: try OfflineOutboxCLITests.storePath(cli, server, "posts"))
      let outbox = try await store.outbox()
      let records = try await store.records()
      #expect(outbox.count == 8 && records.count == 8)
      #expect(Set(records.map(\.record.value.title)) == Set(titles))
      #expect(Set(outbox.compactMap(\.recordKey)) == Set(records.map(\.key)), "they agree")
      #expect(outbox.map(\.createdAt) == outbox.map(\.createdAt).sorted(), "in the order made")
    }
  }

  /// A post queued by another process while a sync is held mid-send is kept, and the next
  /// sync sends it; the running sync's final write does not undo it.
  @Test func aChangeQueuedDuringAnotherProcessesSyncIsKept() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      for title in ["First", "Second"] { _ = try await Self.queue(cli, api, title) }
      let release = DispatchSemaphore(value: 0)
      server.faults.add(
        .init(method: "POST", path: "/posts/add", count: 1, action: .hold({ release.wait() })))
      // The held request must not time out however long the next process takes to start on
      // a busy machine: a timed-out keyed POST is retried (and deduplicated by the server).
      let patient = ["--set", "IDLE_TIMEOUT=300s", "--set", "DEADLINE=300s"]
      let syncing = Task { try await cli.run(api + patient + ["sync"]) }
      try await Self.waitForPosts(server, 1)
      let meanwhile = try await Self.queue(cli, api, "Meanwhile")
      #expect(meanwhile.status == 0, "\(meanwhile.stderr)")
      release.signal()
      let first = try await syncing.value
      // Its two changes went; the one queued meanwhile waits (75) for the next sync.
      #expect(first.status == 75 && first.stdout.components(separatedBy: "synced").count == 3)
      let local = try await cli.run(api + ["posts", "--local"])
      #expect(local.stdout.contains("Meanwhile"), "kept: \(local.stdout)")
      let second = try await cli.run(api + ["sync"])
      #expect(second.status == 0)
      #expect(server.changesDone(path: "/posts/add") == 3)
      #expect(server.journal.count(method: "POST", path: "/posts/add") == 3, "each sent once")
    }
  }

  /// Against a server that ignores `Idempotency-Key` (as the real DummyJSON does), a second
  /// sync started while one runs sends nothing: it says so and exits 75.
  @Test func twoSyncsAtOnceSendEachChangeOnce() async throws {
    var configuration = SandboxServer.Configuration()
    configuration.honoursIdempotencyKeys = false
    try await withSandbox(configuration) { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      for title in ["A", "B", "C"] { _ = try await Self.queue(cli, api, title) }
      let release = DispatchSemaphore(value: 0)
      server.faults.add(
        .init(method: "POST", path: "/posts/add", count: 1, action: .hold({ release.wait() })))
      // The held request must outlive a second process starting on a busy machine: the
      // debug environment's 5-s idle timeout would end it and leave the change pending.
      let patient = ["--set", "IDLE_TIMEOUT=300s", "--set", "DEADLINE=300s"]
      let syncing = Task { try await cli.run(api + patient + ["sync"], timeout: 300) }
      try await Self.waitForPosts(server, 1)
      let second = try await cli.run(api + ["sync"])
      release.signal()
      #expect(second.status == 75 && second.stderr.contains("another sync is running"))
      #expect(second.stdout.isEmpty)
      #expect(try await syncing.value.status == 0)
      #expect(server.changesDone(path: "/posts/add") == 3, "each created once")
    }
  }

  /// `sync` says in its status what is left: 75 while the server is away, 1 for a refused
  /// change (kept until `--retry-failed`), 0 when everything went.
  @Test func syncsExitStatusSaysWhatIsLeft() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString, "--set", "RETRY_MAX_RETRIES=0"]
      _ = try await Self.queue(cli, api, "Refused")
      server.faults.fail(503, method: "POST", path: "/posts/add")
      let away = try await cli.run(api + ["sync"])
      #expect(away.status == 75 && away.stdout.contains("1 change waits"))
      server.faults.add(
        .init(
          method: "POST", path: "/posts/add",
          action: .respond(status: 400, body: #"{"message":"Title is required"}"#)))
      let refused = try await cli.run(api + ["sync"])
      #expect(refused.status == 1 && refused.stdout.contains("HTTP 400: Title is required"))
      let nothing = try await cli.run(api + ["sync"])
      #expect(nothing.status == 1 && nothing.stdout.contains("1 refused"))
      let retried = try await cli.run(api + ["sync", "--retry-failed"])
      #expect(retried.status == 0 && retried.stdout.contains("synced"), "\(retried.all)")
      #expect(server.changesDone(path: "/posts/add") == 1)
    }
  }

  /// The API's host cannot steer where the store is written.
  @Test func aHostileHostStaysInsideTheStoreFolder() async throws {
    let cli = try CLIRunner()
    let result = try await cli.run(
      [
        "--api", "http://a%2F..%2F..%2Fpwn:9101", "post", "create", "--offline", "--title", "t",
        "--body", "b",
      ])
    #expect(result.status == 0, "\(result.stderr)")
    let store = cli.home + "/.local/share/strata-demo/store/"
    let everything = FileManager.default.enumerator(atPath: cli.home)?.allObjects as? [String] ?? []
    let storeFiles = everything.filter { $0.contains("posts.") }
    #expect(!storeFiles.isEmpty)
    for file in storeFiles {
      let path = URL(fileURLWithPath: cli.home + "/" + file).standardized.path
      #expect(path.hasPrefix(store), "\(path)")
      #expect(path.dropFirst(store.count).split(separator: "/").count == 2, "\(path)")
    }
  }
}
