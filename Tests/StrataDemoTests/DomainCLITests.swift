import Dispatch
import Foundation
import Strata
import StrataSandbox
import Testing

/// The domain layer through the binary: rules refuse input before anything is sent (exit 65),
/// events go to `--analytics-log`, and a feature turned off by configuration says which flag
/// did it (exit 78).
@Suite("strata-demo: rules, analytics, feature flags")
struct DomainCLITests {
  @Test func aBlankTitleIsOneLineExit65AndNothingIsSentOrKept() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      for offline in [[], ["--offline"]] {
        let blank = try await cli.run(
          api + ["post", "create", "--title", "   ", "--body", "x"] + offline)
        #expect(blank.status == 65, "\(offline): \(blank.stderr)")
        #expect(blank.stderr == "strata-demo: title: Give the post a title.\n")
        #expect(blank.stdout.isEmpty)
      }
      let body = try await cli.run(api + ["post", "create", "--title", "T", "--body", " \n "])
      #expect(body.status == 65 && body.stderr.contains("body: Write something in the post."))
      #expect(server.journal.count(method: "POST", path: "/posts/add") == 0, "nothing sent")
      let local = try await cli.run(api + ["posts", "--local"])
      #expect(!local.stdout.contains("pending"), "nothing kept: \(local.stdout)")
    }
  }

  @Test func aUsernameOfTheWrongShapeIsOneLineExit65AndNoSignIn() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let login = try await cli.run(
        [
          "--api", server.baseURL.absoluteString, "login", "--username", "emily s", "--password",
          "p",
        ])
      #expect(login.status == 65, "\(login.stderr)")
      #expect(login.stderr == "strata-demo: username: A username has no spaces.\n")
      #expect(server.journal.count(method: "POST", path: "/auth/login") == 0, "nothing sent")
    }
  }

  @Test func eventsAreJSONLinesOfIdsCountsAndStatusesOnly() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let log = cli.home + "/analytics.jsonl"
      let api = ["--api", server.baseURL.absoluteString, "--analytics-log", log]
      let title = "A title only the person typed"
      let created = try await cli.run(
        api + ["post", "create", "--title", title, "--body", "Body text", "--user-id", "3"])
      #expect(created.status == 0, "\(created.stderr)")
      let queued = try await cli.run(
        api + ["post", "create", "--title", title, "--body", "B", "--offline"])
      #expect(queued.status == 0, "\(queued.stderr)")
      var status = stat()
      #expect(stat(log, &status) == 0 && status.st_mode & 0o777 == 0o600, "created 0600")
      let text = try String(contentsOfFile: log, encoding: .utf8)
      let events = text.split(separator: "\n").map { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
      }
      #expect(events.map { $0["event"] as? String } == ["post_created"], "a log per process")
      let properties = events.first?["properties"] as? [String: Any] ?? [:]
      #expect(properties["offline"] as? Bool == true && properties["user_id"] as? Int == 1)
      #expect(!text.contains(title) && !text.contains("Body text"), "no typed text: \(text)")

      let first = try await cli.run(
        ["--api", server.baseURL.absoluteString, "--analytics-log", log + ".1"]
          + ["post", "create", "--title", title, "--body", "Body", "--user-id", "3"])
      #expect(first.status == 0)
      let online = try String(contentsOfFile: log + ".1", encoding: .utf8)
      #expect(online.contains(#""event":"post_created""#) && online.contains(#""offline":false"#))
      #expect(online.contains(#""post_id":151"#) && online.contains(#""user_id":3"#), "\(online)")
    }
  }

  @Test func aFeatureTurnedOffSaysWhichFlagAndExits78() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let comments = try await cli.run(
        api + ["--set", "FEATURE_COMMENTS=NO", "post", "comments", "1"])
      #expect(comments.status == 78)
      #expect(
        comments.stderr
          == "strata-demo: post comments: comments is turned off (FEATURE_COMMENTS=NO)\n")
      let sync = try await cli.run(api + ["--set", "FEATURE_OFFLINE=NO", "sync"])
      #expect(sync.status == 78 && sync.stderr.contains("(FEATURE_OFFLINE=NO)"))
      let queue = try await cli.run(
        api + [
          "--set", "FEATURE_OFFLINE=NO", "post", "create", "--title", "T", "--body", "B",
          "--offline",
        ])
      #expect(queue.status == 78 && queue.stderr.contains("(FEATURE_OFFLINE=NO)"))
      for list in [["posts", "--local"], ["todos", "--local"]] {
        let local = try await cli.run(api + ["--set", "FEATURE_OFFLINE=NO"] + list)
        #expect(local.status == 78, "\(list): \(local.stderr)")
        #expect(
          local.stderr == "strata-demo: \(list[0]): offline is turned off (FEATURE_OFFLINE=NO)\n")
      }
      let bad = try await cli.run(api + ["--set", "FEATURE_OFFLINE=maybe", "users"])
      #expect(bad.status == 78 && bad.stderr.contains("FEATURE_OFFLINE"), "\(bad.stderr)")
      let on = try await cli.run(api + ["post", "comments", "1"])
      #expect(on.status == 0, "on by default: \(on.stderr)")
      let shown = try await cli.run(api + ["config", "show"])
      #expect(shown.stdout.contains("FEATURE_COMMENTS") && shown.stdout.contains("FEATURE_OFFLINE"))
      #expect(server.journal.count(method: "POST", path: "/posts/add") == 0)
    }
  }
}

@Suite("strata-demo sync --watch")
struct SyncWatchCLITests {
  /// Against a sandbox refusing the first eight POSTs with 503, the watching sync keeps trying
  /// (each pass retries, then waits SYNC_INTERVAL, doubling) until the post goes through; a
  /// SIGTERM then stops it with status 0.
  @Test func aWatchingSyncGetsThePostThroughThenStopsOnSIGTERM() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let queued = try await cli.run(
        api + ["post", "create", "--title", "Kept", "--body", "Until sent", "--offline"])
      #expect(queued.status == 0, "\(queued.stderr)")
      server.faults.add(
        .init(method: "POST", path: "/posts/add", count: 8, action: .respond(status: 503)))
      let result = try await CLIEdgeTests.runUntil(
        cli, "^sent 1", then: "TERM", api + ["--set", "SYNC_INTERVAL=1s", "sync", "--watch"])
      #expect(result.stdout.hasPrefix("exit=0\n"), "\(result.stdout)\n\(result.stderr)")
      #expect(result.stdout.contains("sent 1, 0 waiting") && result.stdout.contains("stopped"))
      #expect(result.stdout.contains("0 waiting (trying again)") == false)
      #expect(server.journal.count(method: "POST", path: "/posts/add") >= 9, "eight refused")
      #expect(server.changesDone(path: "/posts/add") == 1, "created once")
      let local = try await cli.run(api + ["posts", "--local"])
      #expect(local.stdout.contains("synced"), "\(local.stdout)")
    }
  }

  /// A second SIGTERM while a change is held in flight ends `sync --watch` at once (143), not
  /// after the request's deadline; the next sync sends that change, once, under its key.
  @Test func aSecondSignalEndsTheWatchAtOnce() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = [
        "--api", server.baseURL.absoluteString, "--set", "DEADLINE=300s", "--set",
        "IDLE_TIMEOUT=300s",
      ]
      let queued = try await cli.run(
        api + ["post", "create", "--title", "Held", "--body", "In flight", "--offline"])
      #expect(queued.status == 0, "\(queued.stderr)")
      let release = DispatchSemaphore(value: 0)
      server.faults.add(
        .init(
          method: "POST", path: "/posts/add", count: 1,
          action: .hold { _ = release.wait(timeout: .now() + 300) }))
      // The shell waits (hang guards, not verdicts on speed) until the server holds the post,
      // signals, waits until the watch says it is stopping, signals again (two signals sent
      // back to back can reach a process as one), and reports the status.
      let script = """
        "$0" "$@" > "$HOME/watch.out" 2> "$HOME/watch.err" &
        pid=$!
        tries=0
        until [ -e "$HOME/held" ] || [ $tries -ge 3000 ]; do sleep 0.1; tries=$((tries + 1)); done
        kill -TERM $pid
        tries=0
        until grep -q 'stopping after' "$HOME/watch.err" || [ $tries -ge 3000 ]; do
          sleep 0.1; tries=$((tries + 1))
        done
        kill -TERM $pid
        wait $pid
        echo "exit=$?"
        cat "$HOME/watch.err"
        """
      let marker = cli.home + "/held"
      let watching = Task {
        try await CLIEdgeTests.shell(cli, script, api + ["sync", "--watch"])
      }
      let patience = ContinuousClock.now + .seconds(300)  // a hang guard, not a verdict on speed
      while server.journal.count(method: "POST", path: "/posts/add") == 0,
        ContinuousClock.now < patience
      {
        try await Task.sleep(for: .milliseconds(20))
      }
      #expect(FileManager.default.createFile(atPath: marker, contents: nil))
      let result = try await watching.value
      release.signal()
      #expect(result.stdout.hasPrefix("exit=143\n"), "\(result.stdout)\n\(result.stderr)")
      #expect(result.stdout.contains("stopped at once"))
      let again = try await cli.run(api + ["sync"])
      #expect(again.status == 0, "\(again.all)")
      #expect(server.changesDone(path: "/posts/add") == 1, "created once, whatever was in doubt")
    }
  }
}
