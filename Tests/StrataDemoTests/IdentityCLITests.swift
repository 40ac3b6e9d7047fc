import DemoKit
import Foundation
import Strata
import StrataSandbox
import Testing

/// A post made offline is itself for its whole life on the device, whatever id the server
/// gives it: the faithful sandbox answers every creation with #151, as DummyJSON does.
@Suite("strata-demo: one identity per post, one outcome per change")
struct IdentityCLITests {
  private static func rows(_ stdout: String) throws -> [[String: Any]] {
    try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]])
  }

  @Test func twoPostsNumberedAlikeBothStayAndAreNamedByTheirLocalIds() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      var locals: [String] = []
      for title in ["First", "Second"] {
        let made = try await cli.run(
          api + ["--json", "post", "create", "--offline", "--title", title, "--body", "b"])
        let json = try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any]
        let post = try #require(json?["post"] as? [String: Any])
        #expect(post["id"] is NSNull, "not numbered yet: null, not 0")
        locals.append(try #require(json?["localId"] as? String))
      }
      let synced = try await cli.run(api + ["sync"])
      #expect(synced.status == 0, "\(synced.stderr)")
      for local in locals { #expect(synced.stdout.contains(local), "the table names each") }
      let listed = try Self.rows(try await cli.run(api + ["--json", "posts", "--local"]).stdout)
      #expect(listed.count == 2, "both stay")
      #expect(Set(listed.compactMap { $0["localId"] as? String }) == Set(locals))
      #expect(listed.allSatisfy { ($0["post"] as? [String: Any])?["id"] as? Int == 151 })
      #expect(
        Set(listed.compactMap { ($0["post"] as? [String: Any])?["title"] as? String })
          == ["First", "Second"])
      // Its server id names both: refused, naming them; nothing is kept or sent.
      let which = try await cli.run(api + ["post", "edit", "151", "--title", "X", "--offline"])
      #expect(which.status == 65, "\(which.stderr)")
      #expect(locals.allSatisfy { which.stderr.contains($0) }, "\(which.stderr)")
      #expect(try await cli.run(api + ["sync"]).stdout.contains("nothing to send"))
    }
  }

  /// An edit of one post while another waits sends that edit alone; its outcome — here the
  /// faithful sandbox's 404 for a post it never kept — is its own.
  @Test func anEditSendsItsOwnChangeAndTakesItsOwnOutcome() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let a = try #require(
        EveryChangeCLITests.localID(
          in: try await cli.run(
            api + ["post", "create", "--offline", "--title", "A", "--body", "b"]
          ).stdout))
      #expect(try await cli.run(api + ["sync"]).status == 0)
      let b = try #require(
        EveryChangeCLITests.localID(
          in: try await cli.run(
            api + ["post", "create", "--offline", "--title", "B", "--body", "b"]
          ).stdout))
      let edited = try await cli.run(api + ["post", "edit", a, "--title", "A2"])
      #expect(edited.status == 1)
      #expect(edited.stderr.contains("post \(a)") && !edited.stderr.contains(b), "\(edited.stderr)")
      #expect(server.journal.count(method: "POST", path: "/posts/add") == 1, "B was not sent")
      let listed = try Self.rows(try await cli.run(api + ["--json", "posts", "--local"]).stdout)
      let status = Dictionary(
        uniqueKeysWithValues: listed.compactMap { row in
          (row["localId"] as? String).map { ($0, row["status"] as? String ?? "") }
        })
      #expect(status == [a: "failed", b: "pending"], "\(listed)")
    }
  }
}

/// Two devices (two homes) edit post 1 offline against one sandbox keeping writes: the second
/// sync is a conflict — nothing overwritten, exit 1 — resolved by `sync --resolve ID mine|theirs`.
@Suite("strata-demo: conflicts, kept and resolved")
struct ConflictCLITests {
  @Test(arguments: ["mine", "theirs"])
  func theSecondDeviceGetsAConflictAndResolvesIt(_ choice: String) async throws {
    try await withSandbox(EveryChangeCLITests.keeping()) { server in
      let (a, b) = (try CLIRunner(), try CLIRunner())
      let api = ["--api", server.baseURL.absoluteString]
      for (device, title) in [(a, "From A"), (b, "From B")] {
        #expect(try await device.run(api + ["posts"]).status == 0, "the page both edit from")
        let kept = try await device.run(api + ["post", "edit", "1", "--title", title, "--offline"])
        #expect(kept.status == 0, "\(kept.stderr)")
      }
      #expect(try await a.run(api + ["sync"]).status == 0)
      let second = try await b.run(api + ["sync"])
      #expect(second.status == 1, "\(second.stdout) \(second.stderr)")
      #expect(second.stdout.contains("conflicted") && second.stdout.contains("sync --resolve"))
      let listed = try await b.run(api + ["posts", "--local"])
      #expect(listed.stdout.contains("conflicted") && listed.stdout.contains("From B"))
      #expect(try await a.run(api + ["post", "comments", "1"]).stdout.contains("From A"))

      let unknown = try await b.run(api + ["sync", "--resolve", "2", choice])
      #expect(unknown.status == 65 && unknown.stderr.contains("no conflicted change"))
      let noChoice = try await b.run(api + ["sync", "--resolve", "1"])
      #expect(noChoice.status == 2, "\(noChoice.stderr)")
      let resolved = try await b.run(api + ["sync", "--resolve", "1", choice])
      #expect(resolved.status == 0, "\(resolved.stdout) \(resolved.stderr)")
      let expected = choice == "mine" ? "From B" : "From A"
      let onServer = try await a.run(api + ["post", "comments", "1"])
      #expect(onServer.stdout.contains(expected), "\(onServer.stdout)")
      let after = try await b.run(api + ["posts", "--local"])
      #expect(after.stdout.contains(expected) && !after.stdout.contains("conflicted"))
    }
  }
}

/// Smaller things around a change's identity and outcome, each as a user meets it.
@Suite("strata-demo: what a change says")
struct ChangeSaysCLITests {
  @Test func aTodoEditedOfflineSaysItsNewText() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      _ = try await cli.run(api + ["todos"])  // the page kept, to change offline
      let edited = try await cli.run(
        api + ["todo", "edit", "1", "--text", "Water the plants", "--offline"])
      #expect(edited.status == 0, "\(edited.stderr)")
      #expect(edited.stdout.contains("\"Water the plants\""), "\(edited.stdout)")
      #expect(!edited.stdout.contains("not done on this device"))
    }
  }

  /// `--retry-failed=ID` puts back the one refused change of the item `ID` (its local id, as
  /// `posts --local` shows it); `--discard` takes the same id.
  @Test func oneRefusedChangeIsRetriedOrDiscardedByItsLocalID() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      var locals: [String] = []
      for title in ["First", "Second"] {
        let made = try await cli.run(
          api + ["post", "create", "--offline", "--title", title, "--body", "b"])
        locals.append(try #require(EveryChangeCLITests.localID(in: made.stdout)))
      }
      server.faults.add(try .init(spec: "POST /posts/add 400x2"))
      #expect(try await cli.run(api + ["sync"]).status == 1, "both refused")
      let retried = try await cli.run(api + ["sync", "--retry-failed=\(locals[0])"])
      #expect(retried.stderr.contains("1 refused change back in the queue"), "\(retried.stderr)")
      #expect(retried.stdout.contains(locals[0]) && retried.status == 1, "sent; the other waits")
      let listed = try await cli.run(api + ["posts", "--local"])
      #expect(listed.stdout.contains("synced") && listed.stdout.contains("failed"))
      let dropped = try await cli.run(api + ["sync", "--discard", locals[1]])
      #expect(dropped.status == 0, "\(dropped.stderr)")
      #expect(try await cli.run(api + ["sync"]).status == 0)
      let noSuch = try await cli.run(api + ["sync", "--retry-failed=abcdef12"])
      #expect(noSuch.status == 65 && noSuch.stderr.contains("no refused change"))
      let flagOnly = try await cli.run(api + ["sync", "--watch=1"])
      #expect(flagOnly.status == 2, "a flag takes no value")
    }
  }

  /// A post the sandbox kept (`--keep-writes`) has comments to list (none yet), as its edit
  /// and deletion already find it.
  @Test func aKeptPostHasComments() async throws {
    try await withSandbox(EveryChangeCLITests.keeping()) { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let made = try await cli.run(api + ["post", "create", "--title", "Mine", "--body", "b"])
      #expect(made.stdout.contains("#151"), "\(made.stdout)")
      let comments = try await cli.run(api + ["post", "comments", "151"])
      #expect(comments.status == 0, "\(comments.stderr)")
      #expect(comments.stdout.contains("Mine"))
    }
  }
}
