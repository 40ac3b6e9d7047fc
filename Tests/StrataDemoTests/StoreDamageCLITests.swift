import DemoKit
import Foundation
import Strata
import StrataSandbox
import Testing

/// The local store where disks, servers and concurrent commands break it, through the built
/// binary: damage is said on every command and not widened, a change the server cannot take is
/// set aside and can be dropped, and toggles made at once each count.
@Suite("strata-demo: a damaged store, dead letters, toggles at once")
struct StoreDamageCLITests {
  /// Five posts queued, one byte flipped in the third record: every command says what was set
  /// aside until a write repairs the files, the other four are listed and sent, and a new post
  /// is kept behind them.
  @Test func aDamagedRecordIsSaidOnEveryCommandAndTheRestIsSent() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      for title in ["One", "Two", "Three", "Four", "Five"] {
        _ = try await cli.run(
          api + ["post", "create", "--offline", "--title", title, "--body", "b"])
      }
      let base = try OfflineOutboxCLITests.storePath(cli, server, "posts")
      let log = base + ".log-0"
      var bytes = try #require(FileManager.default.contents(atPath: log))
      let text = String(decoding: bytes, as: UTF8.self)
      let third = try #require(text.range(of: #""title":"Three""#))
      bytes[text.utf8.distance(from: text.startIndex, to: third.lowerBound)] ^= 0x01
      try bytes.write(to: URL(fileURLWithPath: log))

      let local = try await cli.run(api + ["posts", "--local"])
      #expect(local.status == 0)
      #expect(
        local.stderr.contains("a record could not be read") && local.stderr.contains(".damaged-"))
      for title in ["One", "Two", "Four", "Five"] { #expect(local.stdout.contains(title)) }
      #expect(!local.stdout.contains("Three"))

      let six = try await cli.run(
        api + ["post", "create", "--offline", "--title", "Six", "--body", "b"])
      #expect(six.status == 0 && six.stderr.contains("a record could not be read"))
      let sync = try await cli.run(api + ["sync"])
      #expect(sync.status == 0, "\(sync.stderr)")
      let titles = server.journal.entries.filter { $0.path == "/posts/add" }.map {
        ((try? JSONSerialization.jsonObject(with: $0.body)) as? [String: Any])?["title"] as? String
      }
      #expect(titles == ["One", "Two", "Four", "Five", "Six"])
      // The write repaired the files: the damage is history now, kept aside for a person to
      // look at, and no longer warned about on every command.
      let later = try await cli.run(api + ["posts", "--local"])
      #expect(later.status == 0 && !later.stderr.contains("a record could not be read"))
      let directory = (base as NSString).deletingLastPathComponent
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: directory).contains {
          $0.contains(".damaged-")
        })
    }
  }

  /// A 204 to a create (the server took it, the client cannot read what it made) is a dead
  /// letter at once instead of a duplicate on every sync; the queue goes on, and
  /// `sync --discard` drops it.
  @Test func anUnreadableAnswerIsADeadLetterThatCanBeDiscarded() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString, "--set", "RETRY_MAX_RETRIES=0"]
      for title in ["Poison", "Fine"] {
        _ = try await cli.run(
          api + ["post", "create", "--offline", "--title", title, "--body", "b"])
      }
      server.faults.add(
        .init(method: "POST", path: "/posts/add", count: 1, action: .respond(status: 204)))
      let sync = try await cli.run(api + ["--json", "sync"])
      #expect(sync.status == 1, "a dead letter counts as refused: \(sync.stderr)")
      #expect(sync.stdout.contains("HTTP 204: the server took it"))
      #expect(server.journal.count(method: "POST", path: "/posts/add") == 2, "Fine went on")
      let again = try await cli.run(api + ["sync"])
      #expect(server.journal.count(method: "POST", path: "/posts/add") == 2, "never resent")
      #expect(again.status == 1)

      let store = LocalStore<Post>(path: try OfflineOutboxCLITests.storePath(cli, server, "posts"))
      let poison = try #require(try await store.outbox().first { $0.status == .failed })
      let unknown = try await cli.run(api + ["sync", "--discard", "ZZZZ"])
      #expect(unknown.status == 65 && unknown.stderr.contains("no refused change for 'ZZZZ'"))
      let discarded = try await cli.run(
        api + ["sync", "--discard", String(poison.idempotencyKey.prefix(8)).lowercased()])
      #expect(discarded.status == 0 && discarded.stdout.contains("discarded post.create"))
      let after = try await cli.run(api + ["sync"])
      #expect(after.status == 0 && after.stdout.contains("nothing to send"))
      #expect(try await store.outbox().allSatisfy { $0.status == .synced })
    }
  }

  /// Too many attempts: a change the server keeps failing (503 here) is given up after
  /// `SYNC_MAX_ATTEMPTS` sends over all syncs, and the one behind it goes.
  @Test func aChangeFailingEveryTimeIsGivenUpAfterMaxAttempts() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = [
        "--api", server.baseURL.absoluteString, "--set", "RETRY_MAX_RETRIES=0", "--set",
        "SYNC_MAX_ATTEMPTS=2",
      ]
      for title in ["Stuck", "Behind"] {
        _ = try await cli.run(
          api + ["post", "create", "--offline", "--title", title, "--body", "b"])
      }
      server.faults.add(
        .init(method: "POST", path: "/posts/add", count: 2, action: .respond(status: 503)))
      let first = try await cli.run(api + ["sync"])
      #expect(first.status == 75, "waits: \(first.stderr)")
      let second = try await cli.run(api + ["--json", "sync"])
      #expect(second.status == 1)
      #expect(second.stdout.contains("given up after 2 attempts"))
      #expect(server.changesDone(path: "/posts/add") == 1, "Behind went through")
    }
  }

  /// Eight processes toggle one todo at once, offline: each flips what the last one left (four
  /// say done, four not done), and the todo ends where it began — in at most eight changes (a
  /// flip folds into one not yet sent), the last of them saying so.
  @Test func togglesMadeAtOnceEachFlipTheLastOne() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      _ = try await cli.run(api + ["todos", "--limit", "5"])
      let results = try await withThrowingTaskGroup(of: CLIRunner.Result.self) { group in
        for _ in 0..<8 {
          group.addTask { try await cli.run(api + ["todo", "toggle", "5", "--offline"]) }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(results.allSatisfy { $0.status == 0 })
      let done = results.filter { $0.stdout.contains("todo 5 is done") }.count
      #expect(done == 4, "each flipped the last one: \(results.map(\.stdout))")
      let store = LocalStore<Todo>(path: try OfflineOutboxCLITests.storePath(cli, server, "todos"))
      struct Change: Decodable { let completed: Bool }
      let states = try await store.outbox().map {
        try JSONDecoder().decode(Change.self, from: $0.payload).completed
      }
      let original = try #require(try await store.record("todo-5")).value
      #expect(
        (1...8).contains(states.count) && states.last == original.completed
          && !original.completed, "where it began: \(states)")
    }
  }

  /// The store's directory is the user's alone: at 0755 it is refused with the path and the
  /// fix, and `sync --watch` stops on it with exit 1 instead of printing "sent 0" for ever.
  @Test func anOpenStoreDirectoryIsRefusedAndStopsAWatch() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      _ = try await cli.run(api + ["post", "create", "--offline", "--title", "T", "--body", "b"])
      let directory = (try OfflineOutboxCLITests.storePath(cli, server, "posts") as NSString)
        .deletingLastPathComponent
      chmod(directory, 0o755)
      let local = try await cli.run(api + ["posts", "--local"])
      #expect(local.status != 0 && local.stderr.contains("run chmod 700 \(directory)"))
      let watch = try await cli.run(api + ["sync", "--watch"])
      #expect(watch.status == 1, "\(watch.stderr)")
      #expect(watch.stderr.contains("the local store failed, so the watch stopped"))
    }
  }
}
