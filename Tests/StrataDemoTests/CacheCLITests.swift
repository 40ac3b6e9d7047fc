import Foundation
import Strata
import StrataSandbox
import Testing

/// The HTTP cache from the command line, through the built binary: a second read is
/// revalidated (304, no body), the server gone the last answer is shown with a note and exit
/// 0, `--no-cache` asks anyway, `cache show` / `cache clear` say and forget what is kept.
@Suite("CLI: the HTTP cache")
struct CacheCLITests {
  @Test func readsAreRevalidatedAndShownOfflineFromTheCache() async throws {
    try await CLIRunner.withSandbox(["--set", "RETRY_MAX_RETRIES=0"]) { server, cli, api in
      let log = cli.home + "/http.jsonl"

      let first = try await cli.run(api + ["users", "--limit", "2"])
      #expect(first.status == 0, "\(first.stderr)")
      // Within USERS_CACHE_TTL (60 s) the next command's read is the cache's, unsent.
      let fresh = cli.home + "/fresh.jsonl"
      #expect(try await cli.run(api + ["--http-log", fresh, "users", "--limit", "2"]).status == 0)
      #expect(try String(contentsOfFile: fresh, encoding: .utf8).contains(#""cache":"hit""#))
      // Without it (DummyJSON names no lifetime), every read asks, and a 304 says "the same".
      let api = api + ["--set", "USERS_CACHE_TTL=0s"]
      let second = try await cli.run(api + ["--http-log", log, "users", "--limit", "2"])
      #expect(second.status == 0 && second.stdout == first.stdout)
      let record = try String(contentsOfFile: log, encoding: .utf8)
      #expect(record.contains(#""cache":"revalidated""#) && record.contains(#""status":304"#))

      let shown = try await cli.run(api + ["cache", "show"])
      #expect(shown.status == 0 && shown.stdout.contains("Entries:   1"), "\(shown.all)")
      #expect(shown.stdout.contains(cli.home + "/.cache/strata-demo/http/"))

      server.stopAndWait()
      let offline = try await cli.run(api + ["users", "--limit", "2"])
      #expect(offline.status == 0, "\(offline.stderr)")
      #expect(offline.stdout == first.stdout)
      #expect(offline.stderr.contains("shown from the cache"), "\(offline.stderr)")
      // Its age in the form every line uses: whole seconds, never "0ms".
      #expect(
        offline.stderr.range(of: #"cache, \d+ s old"#, options: .regularExpression) != nil,
        "\(offline.stderr)")
      #expect(offline.stderr.split(separator: "\n").count == 1)

      let refused = try await cli.run(api + ["--no-cache", "users", "--limit", "2"])
      #expect(refused.status != 0)
      let cleared = try await cli.run(api + ["cache", "clear"])
      #expect(cleared.status == 0 && cleared.stdout.contains("cleared 1 answer ("))
      let gone = try await cli.run(api + ["users", "--limit", "2"])
      #expect(gone.status != 0 && !gone.stderr.contains("shown from the cache"))
    }
  }

  /// Processes share the cache's recency: with room for three answers, the one another
  /// process last *read* (a fresh hit, nothing written) stays when a fourth comes, and the
  /// least recently used goes.
  @Test func theAnswerLeastRecentlyUsedByAnyProcessGoesFirst() async throws {
    try await CLIRunner.withSandbox(["--set", "RETRY_MAX_RETRIES=0"]) { server, cli, api in
      server.faults.add(.init(path: "/users/*", count: 100, action: .cacheControl("max-age=3600")))
      let log = cli.home + "/http.jsonl"
      func read(_ id: Int, budget: Int) async throws -> String {
        try? FileManager.default.removeItem(atPath: log)
        let run = try await cli.run(
          api + ["--set", "HTTP_CACHE_SIZE=\(budget)", "--http-log", log, "user", "\(id)"])
        #expect(run.status == 0, "\(run.all)")
        let record = try String(contentsOfFile: log, encoding: .utf8)
        return record.contains(#""cache":"hit""#) ? "hit" : "miss"
      }
      #expect(try await read(1, budget: 1 << 20) == "miss")
      let shown = try await cli.run(api + ["--json", "cache", "show"])
      let summary =
        try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
      let oneFile = try #require(summary?["bytes"] as? Int)
      let budget = 3 * oneFile
      #expect(try await read(2, budget: budget) == "miss")
      #expect(try await read(3, budget: budget) == "miss")
      #expect(try await read(1, budget: budget) == "hit", "read by another process")
      #expect(try await read(4, budget: budget) == "miss")
      #expect(try await read(1, budget: budget) == "hit", "kept: used after 2 and 3")
      #expect(try await read(3, budget: budget) == "hit")
      #expect(try await read(2, budget: budget) == "miss", "2 went: used least recently")
    }
  }

  /// `cache clear` that could not remove an entry (here one that is a directory, which no
  /// permission lets `unlink` remove) says which, and exits 1; what it could remove is gone.
  @Test func aCacheClearThatLeavesAnEntryNamesItAndFails() async throws {
    try await CLIRunner.withSandbox(["--set", "RETRY_MAX_RETRIES=0"]) { server, cli, api in
      #expect(try await cli.run(api + ["users", "--limit", "2"]).status == 0)
      let origin = try #require(Origin(server.baseURL))
      let directory =
        cli.home + "/.cache/strata-demo/http/" + AppDirectories.component(for: origin)
      let stuck = directory + "/0123456789abcdef.entry"
      try FileManager.default.createDirectory(atPath: stuck, withIntermediateDirectories: false)
      let cleared = try await cli.run(api + ["cache", "clear"])
      #expect(cleared.status == 1, "\(cleared.all)")
      #expect(
        cleared.stderr.contains("could not clear 1 of the HTTP cache's files")
          && cleared.stderr.contains(stuck), "\(cleared.stderr)")
      let entries = try FileManager.default.contentsOfDirectory(atPath: directory)
        .filter { $0.hasSuffix(".entry") }
      #expect(entries == ["0123456789abcdef.entry"], "the other answer went")
    }
  }

  /// `me` is one user's answer: kept under the account (the file names no token), shown
  /// offline to that user, and gone when they log out.
  @Test func theSignedInUsersAnswerIsTheirsAndGoesAtLogout() async throws {
    try await CLIRunner.withSandbox(["--set", "RETRY_MAX_RETRIES=0"]) { server, cli, api in
      let login = api + ["login", "--username", "emilys", "--password", "emilyspass"]
      let entries = { () async throws -> String in
        let shown = try await cli.run(api + ["cache", "show"])
        return shown.stdout.split(separator: "\n").first { $0.hasPrefix("Entries:") }.map(
          String.init)
          ?? shown.all
      }

      #expect(try await cli.run(login).status == 0)
      let me = try await cli.run(api + ["me"])
      #expect(me.status == 0 && me.stdout.contains("emilys"), "\(me.all)")
      #expect(try await entries() == "Entries:   1", "the private answer is kept")
      #expect(try await cli.run(api + ["logout"]).status == 0)
      #expect(try await entries() == "Entries:   0", "and removed at logout")

      #expect(try await cli.run(login).status == 0)
      #expect(try await cli.run(api + ["me"]).status == 0)
      server.stopAndWait()
      let offline = try await cli.run(api + ["me"])
      #expect(offline.status == 0 && offline.stdout == me.stdout, "\(offline.all)")
      #expect(offline.stderr.contains("shown from the cache"), "\(offline.stderr)")
    }
  }

  @Test func aBadCacheSettingIsAConfigurationError() async throws {
    let cli = try CLIRunner()
    defer { try? FileManager.default.removeItem(atPath: cli.home) }
    let result = try await cli.run(["--set", "HTTP_CACHE=sometimes", "--sandbox", "cache", "show"])
    #expect(result.status == 78)
    #expect(result.stderr.contains("HTTP_CACHE: expected disk, memory or off, got 'sometimes'"))
  }
}
