import Foundation
import StrataSandbox
import Testing

/// `strata-demo events` follows the sandbox's feed while another `strata-demo` process writes:
/// the write arrives as an event, and SIGINT ends the command with status 0.
@Suite("strata-demo events")
struct EventsCLITests {
  /// Runs `events` (with `flags`) in the background, makes a post from another process once
  /// it follows the feed, waits for the event (hang guards of 300 s, not verdicts on speed),
  /// interrupts it and reports its status and output.
  private static func follow(_ flags: [String]) async throws -> CLIRunner.Result {
    try await withSandbox(EveryChangeCLITests.keeping()) { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      // Kept before the command starts: not shown unless --after asks for it.
      let before = try await cli.run(api + ["post", "create", "--title", "Earlier", "--body", "b"])
      #expect(before.status == 0, "\(before.all)")
      let following = Task {
        try await CLIEdgeTests.runUntil(
          cli, "Another process", then: "INT", api + flags + ["events"])
      }
      try await waitForConnection(server)
      let made = try await cli.run(
        api + ["post", "create", "--title", "Another process", "--body", "b"])
      #expect(made.status == 0, "\(made.all)")
      return try await following.value
    }
  }

  private static func waitForConnection(_ server: SandboxServer) async throws {
    let patience = ContinuousClock.now + .seconds(300)  // a hang guard
    while server.journal.count(method: "GET", path: "/events") == 0, ContinuousClock.now < patience
    {
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  @Test func aWriteByAnotherProcessArrivesAsAnEventAndSIGINTEndsWithZero() async throws {
    let result = try await Self.follow([])
    #expect(result.stdout.hasPrefix("exit=0\n"), "\(result.stdout)\n\(result.stderr)")
    #expect(result.stdout.contains("2  posts.kept  #152  “Another process”  {"), "\(result.stdout)")
    #expect(result.stdout.contains(#""resource":"posts""#), "the data as it came")
    #expect(!result.stdout.contains("Earlier"), "only new events without --after")
  }

  /// `--after 0` replays everything the feed keeps first: the earlier write, then the new one.
  @Test func afterZeroReplaysWhatCameBefore() async throws {
    let result = try await Self.follow(["--after", "0"])
    #expect(result.stdout.hasPrefix("exit=0\n"), "\(result.stdout)\n\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").dropFirst().map(String.init)
    #expect(lines.first?.hasPrefix("1  posts.kept  #151  “Earlier”") == true, "\(lines)")
    #expect(lines.dropFirst().first?.hasPrefix("2  posts.kept  #152") == true, "\(lines)")
  }

  @Test func withJSONEachEventIsOneObjectPerLine() async throws {
    let result = try await Self.follow(["--json"])
    #expect(result.stdout.hasPrefix("exit=0\n"), "\(result.stdout)\n\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").dropFirst()
    #expect(!lines.isEmpty)
    for line in lines {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(object?["type"] as? String == "posts.kept" && object?["id"] as? String == "2")
      #expect(object?["recordId"] as? Int == 152)
      #expect((object?["data"] as? String)?.contains(#""title":"Another process""#) == true)
    }
  }

  /// On the embedded sandbox nothing else writes: the command says in one sentence what to
  /// start, and still ends with 0 at SIGINT.
  @Test func onTheEmbeddedSandboxTheCommandSaysWhatToStart() async throws {
    let result = try await CLIEdgeTests.runUntil(
      try CLIRunner(), "sandbox serve --keep-writes", then: "INT", ["events"], watching: "err")
    #expect(result.stdout.hasPrefix("exit=0\n"), "\(result.stdout)")
    #expect(
      result.stdout.contains("run `strata-demo sandbox serve --keep-writes` in another terminal"),
      "\(result.stdout)")
  }
}
