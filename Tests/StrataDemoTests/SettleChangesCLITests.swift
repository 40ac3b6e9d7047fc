import DemoKit
import Foundation
import Strata
import StrataSandbox
import Testing

/// The user sees and settles every change: each change's key is listed, one change is shown
/// whole (a conflict's theirs and fields included), `--discard` and `--retry-failed` take a
/// post's id, and a deletion two devices made is done on both — against a sandbox that keeps
/// writes.
@Suite("strata-demo: every change seen and settled")
struct SettleChangesCLITests {
  /// Two devices (two homes) read post 1; A changes its title and syncs; B's edit of the title
  /// is a conflict that `sync --show 1` shows whole — mine, theirs, the field — in text and
  /// JSON, and `posts --local --json` lists the change's key.
  @Test func aConflictIsShownWithBothSides() async throws {
    try await CLIRunner.withSandbox(configuration: EveryChangeCLITests.keeping()) {
      server, a, api in
      let b = try CLIRunner()
      defer { try? FileManager.default.removeItem(atPath: b.home) }
      for device in [a, b] { #expect(try await device.run(api + ["posts"]).status == 0) }
      _ = try await a.run(api + ["post", "edit", "1", "--offline", "--title", "From A"])
      _ = try await b.run(api + ["post", "edit", "1", "--offline", "--title", "From B"])
      #expect(try await a.run(api + ["sync"]).status == 0)
      #expect(try await b.run(api + ["sync"]).status == 1, "a conflict")

      let listed = try await b.run(api + ["--json", "posts", "--local"])
      let rows = try #require(
        try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
      let row = try #require(rows.first { $0["status"] as? String == "conflicted" })
      let key = try #require((row["changes"] as? [String])?.first)

      let shown = try await b.run(api + ["sync", "--show", "1"])
      #expect(shown.status == 0, "\(shown.stderr)")
      for part in [key, "conflicted", "Fields", "title", "From A", "From B"] {
        #expect(shown.stdout.contains(part), "\(part): \(shown.stdout)")
      }
      let json = try await b.run(api + ["--json", "sync", "--show", String(key.prefix(8))])
      let change = try #require(
        try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
      #expect(change["key"] as? String == key && change["fields"] as? [String] == ["title"])
      #expect((change["theirs"] as? String)?.contains("From A") == true)
      #expect((change["mine"] as? String)?.contains("From B") == true)
      let unknown = try await b.run(api + ["sync", "--show", "77"])
      #expect(unknown.status == 65, "\(unknown.stderr)")
    }
  }

  /// A post deleted on the server while another device edited it: the edit is refused as gone
  /// (404), the footer suggests `--discard`, which takes the post's id and brings the server's
  /// value back on the device (not deleting it); an unknown id exits 65.
  @Test func aRefusalAsGoneIsDiscardedByThePostsID() async throws {
    try await CLIRunner.withSandbox(configuration: EveryChangeCLITests.keeping()) {
      server, a, api in
      let b = try CLIRunner()
      defer { try? FileManager.default.removeItem(atPath: b.home) }
      #expect(try await b.run(api + ["posts"]).status == 0)
      #expect(try await a.run(api + ["post", "delete", "2"]).status == 0)
      _ = try await b.run(api + ["post", "edit", "2", "--offline", "--title", "Too late"])
      let sync = try await b.run(api + ["sync"])
      #expect(sync.status == 1 && sync.stdout.contains("sync --discard"), "\(sync.all)")
      let unknown = try await b.run(api + ["sync", "--discard", "99"])
      #expect(unknown.status == 65, "\(unknown.stderr)")
      let dropped = try await b.run(api + ["sync", "--discard", "2"])
      #expect(dropped.status == 0, "\(dropped.all)")
      let local = try await b.run(api + ["--json", "posts", "--local"])
      let rows = try #require(
        try JSONSerialization.jsonObject(with: Data(local.stdout.utf8)) as? [[String: Any]])
      let post = try #require(rows.first { ($0["post"] as? [String: Any])?["id"] as? Int == 2 })
      #expect(post["status"] as? String == "synced", "the server's value as last seen")
      #expect((post["post"] as? [String: Any])?["title"] as? String != "Too late")
    }
  }

  /// Two devices delete one post offline: both syncs succeed (the second finds it gone), and
  /// neither lists it any more.
  @Test func twoDevicesDeletingOnePostBothSucceed() async throws {
    try await CLIRunner.withSandbox(configuration: EveryChangeCLITests.keeping()) {
      server, a, api in
      let b = try CLIRunner()
      defer { try? FileManager.default.removeItem(atPath: b.home) }
      for device in [a, b] {
        #expect(try await device.run(api + ["posts"]).status == 0)
        #expect(try await device.run(api + ["post", "delete", "3", "--offline"]).status == 0)
      }
      for device in [a, b] {
        let sync = try await device.run(api + ["sync"])
        #expect(sync.status == 0, "\(sync.all)")
        let local = try await device.run(api + ["posts", "--local"])
        #expect(!local.stdout.contains("pending") && !local.stdout.contains("failed"))
      }
      #expect(server.journal.count(method: "DELETE", path: "/posts/3") >= 1)
    }
  }

  /// A post deleted online is off the device's list too (a page had kept it as synced).
  @Test func anOnlineDeletionLeavesNothingOnTheDevice() async throws {
    try await CLIRunner.withSandbox(configuration: EveryChangeCLITests.keeping()) { _, cli, api in
      #expect(try await cli.run(api + ["posts"]).status == 0)
      #expect(try await cli.run(api + ["post", "delete", "4"]).status == 0)
      let local = try await cli.run(api + ["--json", "posts", "--local"])
      let rows = try #require(
        try JSONSerialization.jsonObject(with: Data(local.stdout.utf8)) as? [[String: Any]])
      #expect(!rows.contains { ($0["post"] as? [String: Any])?["id"] as? Int == 4 })
      #expect(rows.count > 0, "the page's other posts are kept")
    }
  }
}
