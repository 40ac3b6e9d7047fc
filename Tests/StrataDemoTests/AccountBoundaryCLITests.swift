import Dispatch
import Foundation
import Strata
import StrataConcurrency
import StrataSandbox
import Testing

/// Two accounts on one device (a shared tablet, an account switch), through the built
/// `strata-demo` against the sandbox: what one keeps never shows or goes out in the other's
/// session, and nothing of an ended session stays behind.
@Suite("strata-demo: several accounts on one device")
struct AccountBoundaryCLITests {
  static let emily = (username: "emilys", password: "emilyspass")
  static let michael = (username: "michaw", password: "michawpass")

  static func login(
    _ cli: CLIRunner, _ api: [String], _ who: (username: String, password: String)
  ) async throws {
    let login = try await cli.run(
      api + ["login", "--username", who.username, "--password", who.password])
    #expect(login.status == 0, "\(login.stderr)")
  }

  /// The titles of the posts the server was asked to create, in order.
  static func created(_ server: SandboxServer) -> [String] {
    server.journal.entries.filter { $0.method == "POST" && $0.path == "/posts/add" }.compactMap {
      ((try? JSONSerialization.jsonObject(with: $0.body)) as? [String: Any])?["title"] as? String
    }
  }

  /// The files the HTTP cache keeps answers in.
  static func cacheEntries(_ cli: CLIRunner) -> [String] {
    let root = cli.home + "/.cache/strata-demo/http"
    let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
    return names.filter { $0.hasSuffix(".entry") }
  }

  /// Drafts made signed out, as Michael and as Emily each wait for their owner: never listed
  /// or sent in another's session — a switch without logout included — and sent once when
  /// their owner is back; the device's go only signed out, without a token.
  @Test func eachDraftWaitsForItsOwnersSession() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let draft = { (title: String) in
        try await cli.run(api + ["post", "create", "--offline", "--title", title, "--body", "b"])
      }
      #expect(try await draft("Device draft").stdout.contains("no account (signed out)"))

      try await Self.login(cli, api, Self.michael)
      let michaels = try await cli.run(api + ["posts", "--local"])
      #expect(!michaels.stdout.contains("Device draft") && michaels.stdout.contains("user-2"))
      #expect(try await draft("Michael's private draft").stdout.contains("account user-2"))
      _ = try await cli.run(api + ["logout"])

      try await Self.login(cli, api, Self.emily)
      let emilys = try await cli.run(api + ["--json", "posts", "--local"])
      let rows = try JSONSerialization.jsonObject(with: Data(emilys.stdout.utf8)) as? [Any]
      #expect(rows?.isEmpty == true, "neither the device's nor Michael's: \(emilys.stdout)")
      #expect(try await draft("Emily's draft").status == 0)
      let sync = try await cli.run(api + ["--json", "sync"])
      #expect(sync.status == 0, "\(sync.stderr)")
      #expect(sync.stdout.contains(#""account" : "user-1""#))
      #expect(Self.created(server) == ["Emily's draft"], "only Emily's, in Emily's session")

      // Michael signs in without Emily signing out: his draft, still pending, goes now.
      try await Self.login(cli, api, Self.michael)
      let local = try await cli.run(api + ["posts", "--local"])
      #expect(local.stdout.contains("Michael's private draft") && local.stdout.contains("pending"))
      #expect(!local.stdout.contains("Emily's draft"))
      #expect(try await cli.run(api + ["sync"]).status == 0)
      #expect(Self.created(server) == ["Emily's draft", "Michael's private draft"])

      _ = try await cli.run(api + ["logout"])
      let device = try await cli.run(api + ["sync"])
      #expect(device.status == 0 && device.stdout.contains("no account (signed out)"))
      #expect(Self.created(server).last == "Device draft" && Self.created(server).count == 3)
      let sent = server.journal.entries.last { $0.path == "/posts/add" }
      #expect(sent?.header("Authorization") == nil, "the device's draft carries no token")
      #expect(try await cli.run(api + ["sync"]).stdout.contains("nothing to send"))
      #expect(Self.created(server).count == 3, "each sent once")
    }
  }

  /// `login` as another account without `logout`: the first account's kept answers are gone
  /// with its session; a sign-in of the same account again keeps them.
  @Test func signingInAsSomeoneElseEndsThePreviousSession() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString, "--set", "USERS_REQUIRE_SIGN_IN=YES"]
      try await Self.login(cli, api, Self.emily)
      #expect(try await cli.run(api + ["user", "3"]).status == 0)
      #expect(Self.cacheEntries(cli).count == 1, "Emily's read is kept")
      try await Self.login(cli, api, Self.emily)
      #expect(Self.cacheEntries(cli).count == 1, "the same account again keeps it")

      try await Self.login(cli, api, Self.michael)
      #expect(Self.cacheEntries(cli).isEmpty, "Emily's answers went with her session")
      let session = try String(
        contentsOfFile: cli.credentialsPath(for: server.baseURL), encoding: .utf8)
      #expect(session.contains("user-2") && !session.contains("user-1"))
    }
  }

  /// A session file restored from a backup with mode 0644: `logout` removes it, with the
  /// account's kept answers, says what it did, and exits 0.
  @Test func logoutForgetsASessionFileItCannotUse() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString, "--set", "USERS_REQUIRE_SIGN_IN=YES"]
      try await Self.login(cli, api, Self.emily)
      #expect(try await cli.run(api + ["user", "3"]).status == 0)
      #expect(Self.cacheEntries(cli).count == 1)
      let file = cli.credentialsPath(for: server.baseURL)
      #expect(chmod(file, 0o644) == 0)

      let logout = try await cli.run(api + ["logout"])
      #expect(logout.status == 0, "\(logout.stderr)")
      #expect(logout.stderr.contains("warning: removed \(file)"), "\(logout.stderr)")
      #expect(logout.stderr.contains("chmod 600") && logout.stdout.contains("account user-1"))
      #expect(!FileManager.default.fileExists(atPath: file))
      #expect(Self.cacheEntries(cli).isEmpty, "the account's answers are gone too")
      let again = try await cli.run(api + ["logout"])
      #expect(again.status == 0 && again.stdout.contains("nothing to forget"))
    }
  }

  /// `me` held in flight while another process signs out: its answer arrives after the
  /// session ended, so it is neither kept nor shown.
  @Test func anAnswerArrivingAfterAnotherProcessSignedOutIsDropped() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      try await Self.login(cli, api, Self.emily)
      let arrived = Lock(false)
      let release = DispatchSemaphore(value: 0)
      server.faults.add(
        .init(
          method: "GET", path: "/auth/me", count: 1,
          action: .hold {
            arrived.withLock { $0 = true }
            _ = release.wait(timeout: .now() + 300)  // on the sandbox's thread, not the pool's
          }))
      // The read's deadline and idle timeout are hang guards: on a busy machine the other
      // process's logout may take long, and the answer must be dropped for the sign-out — not
      // time out, be retried, and arrive before the logout.
      async let held = cli.run(
        api + ["--set", "DEADLINE=300s", "--set", "IDLE_TIMEOUT=300s", "me"])
      let patience = ContinuousClock.now + .seconds(300)  // a hang guard
      while !arrived.withLock({ $0 }), ContinuousClock.now < patience {
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(arrived.withLock { $0 }, "the read reached the server")
      let logout = try await cli.run(api + ["logout"])
      #expect(logout.status == 0, "\(logout.stderr)")
      release.signal()
      let me = try await held
      #expect(me.status == 77 && !me.stdout.contains("Emily"), "\(me.all)")
      #expect(Self.cacheEntries(cli).isEmpty, "nothing of the ended session was kept")
    }
  }

  /// `sync` of eight changes in one process, held at the first send while another process
  /// signs out (`logout`, or `login` as someone else): nothing more goes out — not under the
  /// old token, not under the new account — and the rest wait, pending, for their owner.
  @Test(arguments: [false, true])
  func anotherProcessesSignOutStopsARunningSync(signsInAsAnother: Bool) async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      try await Self.login(cli, api, Self.emily)
      for number in 1...8 {
        let kept = try await cli.run(
          api + ["post", "create", "--offline", "--title", "Post \(number)", "--body", "b"])
        #expect(kept.status == 0, "\(kept.stderr)")
      }
      let arrived = Lock(false)
      let release = DispatchSemaphore(value: 0)
      server.faults.add(
        .init(
          method: "POST", path: "/posts/add", count: 1,
          action: .hold {
            arrived.withLock { $0 = true }
            _ = release.wait(timeout: .now() + 300)  // on the sandbox's thread
          }))
      async let syncing = cli.run(
        api + ["--set", "DEADLINE=300s", "--set", "IDLE_TIMEOUT=300s", "sync"])
      let patience = ContinuousClock.now + .seconds(300)  // a hang guard
      while !arrived.withLock({ $0 }), ContinuousClock.now < patience {
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(arrived.withLock { $0 }, "the first change reached the server")
      if signsInAsAnother {
        try await Self.login(cli, api, Self.michael)
      } else {
        #expect(try await cli.run(api + ["logout"]).status == 0)
      }
      release.signal()
      let sync = try await syncing
      #expect(sync.status == 75, "the rest wait: \(sync.all)")
      #expect(sync.stdout.contains("7 changes wait: the session ended while the sync ran"))
      #expect(server.journal.count(method: "POST", path: "/posts/add") == 1, "nothing after it")
      // Back in Emily's session, the seven go, once each.
      try await Self.login(cli, api, Self.emily)
      #expect(try await cli.run(api + ["sync"]).status == 0)
      #expect(server.journal.count(method: "POST", path: "/posts/add") == 8)
    }
  }

  /// Signed in against a server that varies every answer on `Authorization`, across many
  /// commands: neither token is in any file under the cache or data directories.
  @Test func noTokenReachesAFileButTheSession() async throws {
    try await withSandbox { server in
      server.faults.add(
        .init(
          method: "GET", path: "/*", count: 1_000,
          action: .header(name: "Vary", value: "Authorization")))
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString, "--set", "USERS_REQUIRE_SIGN_IN=YES"]
      try await Self.login(cli, api, Self.emily)
      for command in [
        ["me"], ["user", "2"], ["user", "2"], ["users", "--limit", "3"], ["posts", "--limit", "3"],
        ["post", "create", "--offline", "--title", "t", "--body", "b"], ["sync"],
        ["todos", "--limit", "3"],
      ] {
        let result = try await cli.run(api + command)
        #expect(result.status == 0, "\(command): \(result.stderr)")
      }
      let session = try Data(
        contentsOf: URL(fileURLWithPath: cli.credentialsPath(for: server.baseURL)))
      let credentials = try JSONDecoder().decode(Credentials.self, from: session)
      #expect(!Self.cacheEntries(cli).isEmpty, "answers were kept")
      for directory in [cli.home + "/.cache", cli.home + "/.local/share"] {
        let names = FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []
        for name in names {
          guard let bytes = FileManager.default.contents(atPath: directory + "/" + name) else {
            continue
          }
          for secret in [credentials.accessToken, credentials.refreshToken] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "a token in \(name)")
          }
        }
      }
    }
  }
}
