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
