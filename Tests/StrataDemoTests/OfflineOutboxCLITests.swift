import DemoKit
import Foundation
import Strata
import StrataSandbox
import Testing

@Suite("strata-demo: posts kept offline, sent by sync")
struct OfflineOutboxCLITests {
  /// Three posts queued by three processes, sent by a fourth: each once, in order, with its
  /// own key, and the store file says so.
  @Test func queuedInOneProcessSentOnceInAnother() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      for title in ["First", "Second", "Third"] {
        let queued = try await cli.run(
          api + ["post", "create", "--offline", "--title", title, "--body", "b"])
        #expect(queued.status == 0 && queued.stdout.contains("pending: \"\(title)\""))
      }
      #expect(server.journal.count(method: "POST", path: "/posts/add") == 0, "nothing sent yet")
      let local = try await cli.run(api + ["posts", "--local"])
      #expect(local.stdout.components(separatedBy: "pending").count == 4)

      let sync = try await cli.run(api + ["sync"])
      #expect(sync.status == 0, "\(sync.stderr)")
      #expect(sync.stdout.components(separatedBy: "synced").count == 4)
      let sent = server.journal.entries.filter { $0.path == "/posts/add" }
      let titles = sent.map {
        ((try? JSONSerialization.jsonObject(with: $0.body)) as? [String: Any])?["title"] as? String
      }
      #expect(titles == ["First", "Second", "Third"], "in the order they were made")
      #expect(Set(sent.compactMap { $0.header("Idempotency-Key") }).count == 3)
      #expect(server.changesDone(path: "/posts/add") == 3)

      let again = try await cli.run(api + ["sync"])
      #expect(again.stdout.contains("nothing to send"))
      #expect(server.journal.count(method: "POST", path: "/posts/add") == 3, "none sent twice")

      let store = LocalStore<Post>(path: try Self.storePath(cli, server, "posts"))
      let outbox = try await store.outbox()
      #expect(outbox.map(\.status) == [.synced, .synced, .synced])
      #expect(outbox.map(\.attempts) == [1, 1, 1])
    }
  }

  /// `sync --json` carries the table's rows and its footer's counts, and the exit status says
  /// the same: 1 when a change was refused, 75 while one waits, 0 when nothing is left.
  @Test func syncJSONCarriesTheRowsAndWhatIsLeft() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString, "--set", "RETRY_MAX_RETRIES=0"]
      for title in ["Refused", "Waiting"] {
        _ = try await cli.run(
          api + ["post", "create", "--offline", "--title", title, "--body", "b"])
      }
      server.faults.add(
        .init(
          method: "POST", path: "/posts/add", count: 1,
          action: .respond(status: 400, body: #"{"message":"no such user"}"#)))
      server.faults.add(
        .init(method: "POST", path: "/posts/add", count: 1, action: .respond(status: 503)))
      let first = try await cli.run(api + ["--json", "sync"])
      #expect(first.status == 1, "a change was refused: \(first.stderr)")
      struct Summary: Decodable {
        struct Change: Decodable {
          let key: String
          let kind: String
          let status: String
          let attempts: Int
          let result: String?
          let message: String?
        }
        let changes: [Change]
        let waiting: Int
        let refused: Int
      }
      let summary = try JSONDecoder().decode(Summary.self, from: Data(first.stdout.utf8))
      #expect(summary.changes.map(\.status) == ["failed", "pending"])
      #expect(summary.changes.first?.message?.contains("no such user") == true)
      #expect(summary.changes.allSatisfy { $0.kind == "post.create" && $0.attempts == 1 })
      #expect(summary.waiting == 1 && summary.refused == 1)

      // Only the refused change is left: still 1.
      let second = try await cli.run(api + ["--json", "sync"])
      #expect(second.status == 1)
      let left = try JSONDecoder().decode(Summary.self, from: Data(second.stdout.utf8))
      #expect(left.changes.map(\.result) == ["post #151"] && left.waiting == 0 && left.refused == 1)

      server.faults.add(
        .init(method: "POST", path: "/posts/add", count: 1, action: .respond(status: 503)))
      // Put back in the queue, it meets a server that is away: 75.
      let waiting = try await cli.run(api + ["sync", "--retry-failed"])
      #expect(waiting.status == 75, "a change waits for the server: \(waiting.stderr)")
      #expect(
        waiting.stdout.contains("1 change waits: POST /posts/add: HTTP 503"), "\(waiting.all)")

      let sent = try await cli.run(api + ["sync"])
      #expect(sent.status == 0 && sent.stdout.contains("synced"), "\(sent.stderr)")
      let done = try await cli.run(api + ["sync"])
      #expect(
        done.status == 0
          && done.stdout
            == "nothing to send for no account (signed out); other accounts' changes wait for their own sessions\n",
        "one line, no table, naming whose changes")
      let empty = try await cli.run(api + ["--json", "sync"])
      let nothing = try JSONDecoder().decode(Summary.self, from: Data(empty.stdout.utf8))
      #expect(empty.status == 0 && nothing.changes.isEmpty && nothing.waiting == 0)
    }
  }

  /// Where the CLI keeps `kind` for the sandbox's origin.
  static func storePath(_ cli: CLIRunner, _ server: SandboxServer, _ kind: String) throws
    -> String
  {
    let origin = try #require(Origin(server.baseURL))
    return cli.home + "/.local/share/strata-demo/store/"
      + AppDirectories.component(for: origin) + "/" + kind
  }

  /// The server cannot be reached: the post stays pending; later it is sent, once.
  @Test func anUnreachableServerKeepsThePostPending() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString, "--set", "RETRY_MAX_RETRIES=0"]
      server.faults.add(
        .init(method: "POST", path: "/posts/add", count: 1, action: .dropConnection))
      _ = try await cli.run(
        api + ["post", "create", "--offline", "--title", "Later", "--body", "b"])
      let first = try await cli.run(api + ["sync"])
      // The footer says what went wrong: here the connection, not the server's answer.
      #expect(
        first.stdout.contains("pending")
          && first.stdout.contains("1 change waits: POST /posts/add: "),
        "\(first.stdout)")
      #expect(first.status == 75, "changes wait: EX_TEMPFAIL")
      let second = try await cli.run(api + ["sync"])
      #expect(second.stdout.contains("synced"))
      #expect(server.changesDone(path: "/posts/add") == 1)
    }
  }
}

@Suite("strata-demo: todo changes kept offline")
struct OfflineTodosCLITests {
  @Test func aToggleKeptOfflineIsSentBySync() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let unknown = try await cli.run(api + ["todo", "toggle", "3", "--offline"])
      #expect(unknown.status == 1 && unknown.stderr.contains("todo 3 is not on this device"))
      #expect(server.journal.entries.isEmpty, "offline: not one request")
      _ = try await cli.run(api + ["todos", "--limit", "5"])
      let kept = try await cli.run(api + ["todo", "toggle", "3", "--offline"])
      #expect(kept.status == 0, "\(kept.stderr)")
      #expect(kept.stdout.contains("todo 3 is not done on this device, pending"))
      #expect(server.journal.count(method: "PUT", path: "/todos/3") == 0)
      let local = try await cli.run(api + ["todos", "--local"])
      #expect(local.stdout.contains("pending"))
      let sync = try await cli.run(api + ["sync"])
      #expect(sync.stdout.contains("todo.update") && sync.stdout.contains("todo #3 not done"))
      #expect(server.journal.count(method: "PUT", path: "/todos/3") == 1)
      _ = try await cli.run(api + ["sync"])
      #expect(server.journal.count(method: "PUT", path: "/todos/3") == 1, "sent once")
    }
  }
}
