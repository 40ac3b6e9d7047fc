import Foundation
import StrataSandbox
import Testing

/// `posts --local` and `todos --local` query what the device keeps (`--where`, `--sort`,
/// `--limit`), `--pull` reads the server's whole listing first (what it deleted goes), the
/// footer says when that last happened, and `--follow` prints the list again when another
/// process changes it.
@Suite("strata-demo posts --local: queries, --pull, --follow")
struct LocalQueryCLITests {
  private static func posts(_ output: String) throws -> [[String: Any]] {
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
    return rows.compactMap { $0["post"] as? [String: Any] }
  }

  private static func ids(_ output: String) throws -> [Int] {
    try posts(output).compactMap { $0["id"] as? Int }
  }

  @Test func aQueryFiltersSortsAndLimitsWhatAPullKept() async throws {
    try await CLIRunner.withSandbox(configuration: EveryChangeCLITests.keeping()) {
      _, cli, api in
      let never = try await cli.run(api + ["posts", "--local"])
      #expect(never.stdout.contains("never read from the server in full"), "\(never.all)")
      let pulled = try await cli.run(
        api + ["--json", "posts", "--local", "--pull", "--sort", "-views", "--limit", "3"])
      #expect(pulled.status == 0, "\(pulled.all)")
      let top = try Self.ids(pulled.stdout)
      #expect(top.count == 3)
      let all = try await cli.run(api + ["--json", "posts", "--local"])
      let count = try Self.ids(all.stdout).count
      let page = try await cli.run(api + ["--json", "posts", "--limit", "1"])
      let listed = try JSONSerialization.jsonObject(with: Data(page.stdout.utf8)) as? [String: Any]
      #expect(count == listed?["total"] as? Int, "every page read: \(count)")
      let author = try #require(try Self.posts(pulled.stdout).first?["userId"] as? Int)
      let user = try await cli.run(
        api + ["--json", "posts", "--local", "--where", "userId=\(author)", "--sort", "id"])
      let theirs = try Self.posts(user.stdout)
      let mine = theirs.compactMap { $0["id"] as? Int }
      #expect(!mine.isEmpty && mine == mine.sorted(), "\(user.all)")
      #expect(theirs.allSatisfy { $0["userId"] as? Int == author })
      let table = try await cli.run(api + ["posts", "--local", "--limit", "1"])
      #expect(table.stdout.contains("last read from the server in full"), "\(table.all)")
      // Deleted on the server: the next pull takes it out.
      let gone = try #require(top.first)
      #expect(try await cli.run(api + ["post", "delete", String(gone)]).status == 0)
      _ = try await cli.run(api + ["posts", "--local", "--pull", "--limit", "1"])
      let after = try Self.ids(try await cli.run(api + ["--json", "posts", "--local"]).stdout)
      #expect(after.count == count - 1 && !after.contains(gone))
    }
  }

  @Test(arguments: [
    (["--where", "colour=red"], "takes one of the fields id, userId, title, views, likes"),
    (["--where", "userId=five"], "--where userId needs a whole number, got 'five'"),
    (["--where", "userId"], "--where needs FIELD=VALUE, got 'userId'"),
    (["--sort", "-colour"], "--sort takes one of the fields"),
  ])
  func aBadFieldOrValueIsAUsageErrorNamingWhatIsAllowed(_ flags: [String], _ says: String)
    async throws
  {
    try await CLIRunner.withSandbox { _, cli, api in
      let result = try await cli.run(api + ["posts", "--local"] + flags)
      #expect(result.status == 2, "\(result.all)")
      #expect(result.stderr.contains(says), "\(result.stderr)")
    }
  }

  @Test func followPrintsTheListAgainWhenAnotherProcessChangesItAndEndsAtSIGINT() async throws {
    try await CLIRunner.withSandbox(configuration: EveryChangeCLITests.keeping()) {
      _, cli, api in
      #expect(try await cli.run(api + ["posts", "--local", "--pull"]).status == 0)
      let following = Task {
        try await CLIEdgeTests.runUntil(
          cli, "Followed edit", then: "INT",
          api + ["posts", "--local", "--follow", "--where", "id=1"])
      }
      // Once the list is on screen, another process changes it (offline: the device only).
      var edited = false
      let patience = ContinuousClock.now + .seconds(300)  // a hang guard
      while !edited, ContinuousClock.now < patience {
        try await Task.sleep(for: .milliseconds(50))
        let shown = (try? String(contentsOfFile: cli.home + "/until.out", encoding: .utf8)) ?? ""
        guard shown.contains("1 on this device") else { continue }
        let edit = try await cli.run(
          api + ["post", "edit", "1", "--offline", "--title", "Followed edit"])
        #expect(edit.status == 0, "\(edit.all)")
        edited = true
      }
      let result = try await following.value
      #expect(result.stdout.contains("exit=0"), "\(result.all)")
      #expect(result.stdout.components(separatedBy: "1 on this device").count == 3, "twice")
    }
  }

  /// `sync --watch` with nothing waiting idles; a post another process keeps wakes it, and it
  /// is sent at once — no timer, no restart.
  @Test func syncWatchWakesWhenAnotherProcessKeepsAChange() async throws {
    try await CLIRunner.withSandbox(configuration: EveryChangeCLITests.keeping()) {
      server, cli, api in
      let watching = Task {
        try await CLIEdgeTests.runUntil(
          cli, "^sent 1", then: "INT", api + ["--set", "SYNC_INTERVAL=1h", "sync", "--watch"])
      }
      // Once the watch has read the (empty) outbox, another process keeps a post.
      let patience = ContinuousClock.now + .seconds(300)  // a hang guard
      while ContinuousClock.now < patience {
        let told = (try? String(contentsOfFile: cli.home + "/until.err", encoding: .utf8)) ?? ""
        if told.contains("sending the outbox until interrupted") { break }
        try await Task.sleep(for: .milliseconds(50))
      }
      let kept = try await cli.run(
        api + ["post", "create", "--title", "Woken", "--body", "b", "--offline"])
      #expect(kept.status == 0, "\(kept.all)")
      let result = try await watching.value
      #expect(result.stdout.contains("exit=0"), "\(result.all)")
      #expect(server.changesDone(path: "/posts/add") == 1)
    }
  }
}
