import StrataSandbox
import Testing

/// `sync` shows its progress on a terminal once it has run for a second; piped, it stays plain.
@Suite("strata-demo sync: progress on a terminal only")
struct SyncProgressCLITests {
  @Test func aSlowSyncShowsNOfNOnATerminalAndNothingWhenPiped() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      for title in ["One", "Two", "Three", "Four"] {
        _ = try await cli.run(
          api + ["post", "create", "--offline", "--title", title, "--body", "b"])
      }
      // Each send waits 1.5 s at the server: the sync runs well past a second however fast
      // the machine is.
      server.faults.add(
        .init(method: "POST", path: "/posts/add", count: 2, action: .delay(.milliseconds(1500))))
      let terminal = try await PseudoTerminal.run(cli, api + ["sync"]).shown
      #expect(terminal.contains("sending 1 of 4: post.create "), "\(terminal)")
      server.faults.add(
        .init(method: "POST", path: "/posts/add", count: 2, action: .delay(.milliseconds(1500))))
      _ = try await cli.run(api + ["post", "create", "--offline", "--title", "5", "--body", "b"])
      _ = try await cli.run(api + ["post", "create", "--offline", "--title", "6", "--body", "b"])
      let piped = try await cli.run(api + ["sync"])
      #expect(piped.status == 0 && !piped.stderr.contains("sending"), "\(piped.stderr)")
    }
  }
}
