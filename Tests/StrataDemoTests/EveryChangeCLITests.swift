import DemoKit
import Foundation
import Strata
import StrataSandbox
import Testing

/// `post edit`, `post delete`, `todo add`, `todo edit`, `todo delete` — each online and with
/// `--offline`, each checked before anything is sent or kept — run as the built binary.
@Suite("strata-demo: every change to posts and todos")
struct EveryChangeCLITests {
  static func keeping() -> SandboxServer.Configuration {
    var configuration = SandboxServer.Configuration()
    configuration.keepsWrites = true
    return configuration
  }

  /// The local id printed by `post create --offline` (`… local id <id> — …`).
  static func localID(in text: String) -> String? {
    guard let range = text.range(of: "local id ") else { return nil }
    return String(text[range.upperBound...].prefix(8))
  }

  /// A post made offline keeps one local id — printed, in `--json` as `localId`, listed by
  /// `posts --local` — edited and deleted by it before and after the server numbered it.
  @Test func aPostMadeOfflineIsEditedAndDeletedByItsLocalID() async throws {
    try await withSandbox(Self.keeping()) { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let made = try await cli.run(
        api + ["--json", "post", "create", "--offline", "--title", "Draft", "--body", "b"])
      #expect(made.status == 0, "\(made.stderr)")
      let json = try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any]
      let local = try #require(json?["localId"] as? String)
      let edited = try await cli.run(
        api + ["post", "edit", local, "--title", "Final", "--offline"])
      #expect(edited.status == 0 && edited.stdout.contains("post \(local) changed"))
      let listed = try await cli.run(api + ["posts", "--local"])
      #expect(listed.stdout.contains(local) && listed.stdout.contains("Final"))
      #expect(server.journal.entries.isEmpty, "offline: nothing sent")

      #expect(try await cli.run(api + ["sync"]).status == 0)
      #expect(server.journal.count(method: "POST", path: "/posts/add") == 1, "folded: one POST")
      let renamed = try await cli.run(api + ["post", "edit", local, "--title", "Renamed"])
      #expect(renamed.status == 0 && renamed.stdout.contains("#151"), "\(renamed.stderr)")
      #expect(server.journal.count(method: "PUT", path: "/posts/151") == 1)
      let deleted = try await cli.run(api + ["post", "delete", local])
      #expect(deleted.status == 0 && deleted.stdout.contains("post \(local) deleted"))
      #expect(server.journal.count(method: "DELETE", path: "/posts/151") == 1)
    }
  }

  @Test func aPostDeletedBeforeItWasSentSendsNothing() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let made = try await cli.run(
        api + ["post", "create", "--offline", "--title", "Oops", "--body", "b"])
      let local = try #require(Self.localID(in: made.stdout))
      let deleted = try await cli.run(api + ["post", "delete", local])
      #expect(deleted.status == 0 && deleted.stdout.contains("never sent: dropped, nothing sent"))
      #expect(try await cli.run(api + ["sync"]).stdout.contains("nothing to send"))
      #expect(server.journal.entries.isEmpty)
    }
  }

  /// Against what DummyJSON does (a write answered, nothing kept), an edit of the post it just
  /// made is its 404, shown with the server's message.
  @Test func theFaithfulSandboxRefusesAnEditOfThePostItMade() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let made = try await cli.run(
        api + ["post", "create", "--offline", "--title", "Mine", "--body", "b"])
      let local = try #require(Self.localID(in: made.stdout))
      _ = try await cli.run(api + ["sync"])
      let edited = try await cli.run(api + ["post", "edit", local, "--title", "Renamed"])
      #expect(edited.status == 1, "refused: the command failed")
      #expect(
        edited.stderr.contains("refused by the server: HTTP 404: Post with id '151' not found"),
        "\(edited.stdout) \(edited.stderr)")
      let listed = try await cli.run(api + ["posts", "--local"])
      #expect(listed.stdout.contains("failed") && listed.stdout.contains(local), "a dead letter")
    }
  }

  @Test func todosAreAddedEditedAndDeletedOnlineAndOffline() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let added = try await cli.run(api + ["todo", "add", "--text", "Water the plants"])
      #expect(added.status == 0 && added.stdout.contains("added todo 151: Water the plants"))
      let edited = try await cli.run(api + ["todo", "edit", "3", "--text", "Call mum"])
      #expect(edited.status == 0 && edited.stdout.contains("todo 3 now reads: Call mum"))
      #expect(try await cli.run(api + ["todo", "delete", "4"]).stdout.contains("todo 4 deleted"))
      #expect(server.journal.count(method: "DELETE", path: "/todos/4") == 1)

      _ = try await cli.run(api + ["todos", "--limit", "5"])
      let kept = try await cli.run(
        api + ["--json", "todo", "add", "--text", "Later", "--offline"])
      let row = try JSONSerialization.jsonObject(with: Data(kept.stdout.utf8)) as? [String: Any]
      let local = try #require(row?["localId"] as? String, "\(kept.stdout)")
      #expect(try await cli.run(api + ["todo", "toggle", local, "--offline"]).status == 0)
      #expect(try await cli.run(api + ["todo", "delete", "5", "--offline"]).status == 0)
      let listed = try await cli.run(api + ["todos", "--local"])
      #expect(listed.stdout.contains(local) && listed.stdout.contains("pending (deleted)"))
      #expect(try await cli.run(api + ["sync"]).status == 0)
      #expect(server.journal.count(method: "POST", path: "/todos/add") == 2)
      #expect(server.journal.count(method: "DELETE", path: "/todos/5") == 1)
    }
  }

  /// Input a rule refuses is exit 65, a bad ID exit 2 — and nothing is sent or kept.
  @Test func badInputIsRefusedBeforeAnythingIsSentOrKept() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let cases: [([String], Int32, String)] = [
        (["post", "edit", "1", "--title", "  "], 65, "title: Give the post a title."),
        (["post", "edit", "1"], 65, "Give a new title or body."),
        (["post", "edit", "1", "--title", "  ", "--offline"], 65, "Give the post a title."),
        (["todo", "edit", "3", "--text", ""], 65, "todo: Say what there is to do."),
        (["todo", "add", "--text", String(repeating: "x", count: 501)], 65, "at most 500"),
        (["post", "delete", "ABC"], 2, "ID must be a positive number or a local id"),
        (["todo", "delete", "-1"], 2, "ID must be"),
        (["todo", "add"], 2, "todo add needs --text"),
        (["post", "delete", "0badc0de", "--offline"], 1, "no post with local id 0badc0de"),
      ]
      for (arguments, status, message) in cases {
        let result = try await cli.run(api + arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
      }
      #expect(server.journal.entries.isEmpty, "nothing sent")
    }
  }
}
