import DemoKit
import Foundation
import Strata
import StrataConcurrency
import StrataSandbox
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `sync` killed (SIGKILL) while a change is at the server, then another change to the same
/// post: the change that may have arrived is never rewritten, so both reach the server, in
/// order, each once — against a sandbox that keeps writes and honours `Idempotency-Key`.
@Suite("strata-demo: a sync killed mid-send loses no later change")
struct SyncKilledCLITests {
  enum Then: String, CaseIterable, Sendable { case edit, delete }

  /// A post made offline; a sync killed while its POST is held at the server (which creates
  /// the post once let go); then an edit or a deletion offline, and a sync.
  @Test(arguments: Then.allCases)
  func aChangeAfterACreationKilledMidSendFollowsIt(_ then: Then) async throws {
    try await CLIRunner.withSandbox(configuration: EveryChangeCLITests.keeping()) {
      server, cli, api in
      let made = try await cli.run(
        api + ["--json", "post", "create", "--offline", "--title", "Before", "--body", "b"])
      #expect(made.status == 0, "\(made.stderr)")
      let local = try #require(
        (try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])?[
          "localId"] as? String)
      try await Self.killSync(cli, api, server, holding: "/posts/add")

      let change =
        then == .edit
        ? ["post", "edit", local, "--offline", "--title", "After"]
        : ["post", "delete", local, "--offline"]
      let kept = try await cli.run(api + change)
      #expect(kept.status == 0, "\(kept.all)")
      let sync = try await cli.run(api + ["sync"])
      #expect(sync.status == 0, "\(sync.all)")

      let posts = server.journal.entries.filter { $0.path == "/posts/add" }
      #expect(posts.count == 2, "sent again after the kill")
      #expect(Set(posts.compactMap { $0.header("Idempotency-Key") }).count == 1, "one key")
      #expect(server.changesDone(path: "/posts/add") == 1, "made once")
      let id = try #require(Self.createdID(server))
      switch then {
      case .edit:
        #expect(server.journal.count(method: "PUT", path: "/posts/\(id)") == 1)
        let now = try await Self.read(server, "/posts/\(id)")
        #expect(now?["title"] as? String == "After", "the edit reached the server")
      case .delete:
        #expect(server.journal.count(method: "DELETE", path: "/posts/\(id)") == 1)
        let status = try await Self.status(server, "/posts/\(id)")
        #expect(status == 404, "deleted on the server, not withdrawn on the device alone")
      }
      let local2 = try await cli.run(api + ["--json", "posts", "--local"])
      #expect(!local2.stdout.contains("pending"), "\(local2.stdout)")
    }
  }

  enum After: String, CaseIterable, Sendable { case edit, delete, discard }

  /// Post 1 edited offline; a sync killed while its PUT is held at the server (which makes
  /// the edit once let go); then another change: an edit (both PUTs arrive, in order), a
  /// deletion (after the edit), or an edit the server refuses and the user discards (the
  /// device goes back to the server's value: the first edit's, not the post deleted).
  @Test(arguments: After.allCases)
  func aChangeAfterAnEditKilledMidSendFollowsIt(_ after: After) async throws {
    try await CLIRunner.withSandbox(configuration: EveryChangeCLITests.keeping()) {
      server, cli, api in
      #expect(try await cli.run(api + ["posts"]).status == 0, "post 1 kept on the device")
      _ = try await cli.run(api + ["post", "edit", "1", "--offline", "--title", "First"])
      try await Self.killSync(cli, api, server, holding: "/posts/1")
      let change =
        after == .delete
        ? ["post", "delete", "1", "--offline"]
        : ["post", "edit", "1", "--offline", "--title", "Second"]
      #expect(try await cli.run(api + change).status == 0)
      if after == .discard {
        // The first PUT (the resend) is served; while it is, a refusal is set for the next.
        let refuseNext: @Sendable () -> Void = {
          server.faults.add(
            .init(method: "PUT", path: "/posts/1", count: 1, action: .respond(status: 400)))
        }
        server.faults.add(
          .init(method: "PUT", path: "/posts/1", count: 1, action: .hold(refuseNext)))
      }
      let sync = try await cli.run(api + ["sync"])
      let puts = server.journal.entries.filter { $0.method == "PUT" && $0.path == "/posts/1" }
      #expect(puts.count == (after == .delete ? 2 : 3), "the first twice (one key), then the next")
      #expect(Set(puts.prefix(2).compactMap { $0.header("Idempotency-Key") }).count == 1)
      switch after {
      case .edit:
        #expect(sync.status == 0, "\(sync.all)")
        #expect(try await Self.read(server, "/posts/1")?["title"] as? String == "Second")
      case .delete:
        #expect(sync.status == 0, "\(sync.all)")
        #expect(try await Self.status(server, "/posts/1") == 404)
      case .discard:
        #expect(
          sync.status == 1,
          "the second edit refused: \(sync.all) \(puts.map { String(decoding: $0.body, as: UTF8.self) })"
        )
        #expect(try await cli.run(api + ["sync", "--discard", "1"]).status == 0)
        let local = try await cli.run(api + ["--json", "posts", "--local"])
        let rows = try #require(
          try JSONSerialization.jsonObject(with: Data(local.stdout.utf8)) as? [[String: Any]])
        let post = try #require(rows.first { ($0["post"] as? [String: Any])?["id"] as? Int == 1 })
        #expect(post["status"] as? String == "synced")
        #expect((post["post"] as? [String: Any])?["title"] as? String == "First")
      }
    }
  }

  /// Starts `sync` and kills it the moment its request to `path` reaches the server (from
  /// the server's own thread, so it can neither hear an answer nor send the request again
  /// however slow the machine), then lets the server finish that request and waits until it
  /// has (the change happens; the client never hears).
  static func killSync(
    _ cli: CLIRunner, _ api: [String], _ server: SandboxServer, holding path: String
  ) async throws {
    let client = Lock<pid_t>(0)
    let release = DispatchSemaphore(value: 0)
    server.faults.add(
      .init(
        method: path.hasSuffix("/add") ? "POST" : "PUT", path: path, count: 1,
        action: .hold {
          // The request can only come from the process started below, once it has a pid.
          while client.withLock({ $0 }) == 0 { usleep(1_000) }
          _ = kill(client.withLock { $0 }, SIGKILL)
          release.wait()
        }))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: cli.executable)
    process.arguments = api + ["sync"]
    process.environment = cli.environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try CLIRunner.spawn(process)
    client.withLock { $0 = process.processIdentifier }
    // A hang guard, not a verdict: the request arrives within a second on any machine.
    let deadline = ContinuousClock.now + .seconds(120)
    while process.isRunning, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    let ended = !process.isRunning
    if !ended { _ = kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    #expect(ended && process.terminationReason == .uncaughtSignal, "killed at its request")
    release.signal()
    // The server finishes what it was doing (the change happens) before the test goes on:
    // a hang guard, not a verdict.
    while server.changesDone(path: path) == 0, ContinuousClock.now < deadline + .seconds(120) {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(server.changesDone(path: path) == 1, "the held change was made")
  }

  /// The id the sandbox gave the created post: from its answer to the replayed POST.
  static func createdID(_ server: SandboxServer) -> Int? {
    server.journal.entries.compactMap { entry -> Int? in
      guard entry.method == "PUT" || entry.method == "DELETE",
        entry.path.hasPrefix("/posts/")
      else { return nil }
      return Int(entry.path.dropFirst("/posts/".count))
    }.first
  }

  static func read(_ server: SandboxServer, _ path: String) async throws -> [String: Any]? {
    let (data, _) = try await URLSession.shared.data(
      from: server.baseURL.appendingPathComponent(path))
    return try JSONSerialization.jsonObject(with: data) as? [String: Any]
  }

  static func status(_ server: SandboxServer, _ path: String) async throws -> Int? {
    let (_, response) = try await URLSession.shared.data(
      from: server.baseURL.appendingPathComponent(path))
    return (response as? HTTPURLResponse)?.statusCode
  }
}
