import Foundation
import Testing

/// What the CLI leaves on disk after a day's work, read as another local user would: under a
/// umask of 000, nothing of the library's is readable by others (a download — the user's own
/// file — takes the umask, as curl's does), and no password or token is in any file but the
/// session file. Logout over a session path it cannot use says what it could not remove.
@Suite("CLI: files at rest")
struct FilesAtRestCLITests {
  /// Every regular file and directory under `root`, with its mode.
  static func modes(under root: String) -> [(path: String, mode: Int, directory: Bool)] {
    let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
    return names.compactMap { name in
      let path = root + "/" + name
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
        let mode = attributes[.posixPermissions] as? Int
      else { return nil }
      return (path, mode, attributes[.type] as? FileAttributeType == .typeDirectory)
    }
  }

  @Test func underUmask000NothingOfTheLibrarysIsReadableAndNoCredentialIsAtRest() async throws {
    try await CLIRunner.withSandbox(["--set", "RETRY_MAX_RETRIES=0"]) { _, cli, api in
      var shell = cli
      shell.executable = "/bin/sh"
      let run = { (arguments: [String]) async throws -> CLIRunner.Result in
        try await shell.run(["-c", "umask 000; exec \"$0\" \"$@\"", CLIRunner.binary] + arguments)
      }
      let steps: [[String]] = [
        ["login", "--username", "emilys", "--password", "emilyspass"], ["me"], ["users"],
        ["user", "2"], ["posts"], ["settings", "set", "page-size", "7"],
        ["post", "create", "--title", "At rest", "--body", "kept", "--offline"],
        ["download", "icon/emilys/64", cli.home + "/emily.png"],
      ]
      for step in steps {
        let result = try await run(api + step)
        #expect(result.status == 0, "\(step): \(result.all)")
      }
      let session = try String(
        contentsOfFile: cli.credentialsPath(for: URL(string: api[1])!), encoding: .utf8)
      struct Tokens: Decodable {
        let accessToken: String
        let refreshToken: String
      }
      let tokens = try JSONDecoder().decode(Tokens.self, from: Data(session.utf8))
      var checked = 0
      let download = try FileManager.default.attributesOfItem(atPath: cli.home + "/emily.png")
      #expect(download[.posixPermissions] as? Int == 0o666, "the user's file, with the umask")
      // The app's own directories (Foundation makes empty ones of its own beside them).
      let own = ["/.cache/strata-demo", "/.local/share/strata-demo", "/config/strata-demo"]
      for (path, mode, directory) in Self.modes(under: cli.home)
      where path != cli.home + "/emily.png" {
        if own.contains(where: { path.hasPrefix(cli.home + $0) }) {
          #expect(mode & 0o077 == 0, "\(path) is \(String(mode, radix: 8))")
        }
        guard !directory, path != cli.credentialsPath(for: URL(string: api[1])!) else { continue }
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        let text = String(decoding: bytes, as: UTF8.self)
        for secret in ["emilyspass", "michaelwpass", tokens.accessToken, tokens.refreshToken] {
          #expect(!text.contains(secret), "\(path) holds a credential")
        }
        checked += 1
      }
      #expect(checked >= 5, "the cache, the store and the settings were scanned")
    }
  }

  /// A directory where the session file goes: logout removes nothing there, and says so.
  @Test func logoutOverADirectorySaysWhatItCouldNotRemove() async throws {
    try await CLIRunner.withSandbox { _, cli, api in
      let path = cli.credentialsPath(for: URL(string: api[1])!)
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      let result = try await cli.run(api + ["logout"])
      #expect(result.status == 1, "\(result.all)")
      #expect(result.stderr.contains("could not be removed"), "\(result.stderr)")
      #expect(!result.all.contains("warning: removed"))
      var isDirectory: ObjCBool = false
      #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory))
    }
  }

  /// A truncated session file names no account: logout removes every account's kept answers
  /// (whose they were cannot be told).
  @Test func logoutOverATruncatedSessionRemovesTheAccountsAnswers() async throws {
    try await CLIRunner.withSandbox { _, cli, api in
      let login = api + ["login", "--username", "emilys", "--password", "emilyspass"]
      #expect(try await cli.run(login).status == 0)
      #expect(try await cli.run(api + ["me"]).status == 0)
      let path = cli.credentialsPath(for: URL(string: api[1])!)
      let whole = try Data(contentsOf: URL(fileURLWithPath: path))
      try whole.prefix(10).write(to: URL(fileURLWithPath: path))
      let result = try await cli.run(api + ["logout"])
      #expect(result.status == 0, "\(result.all)")
      let entries = Self.modes(under: cli.home + "/.cache").filter {
        $0.path.hasSuffix(".entry") && ($0.path as NSString).lastPathComponent.hasPrefix("u")
      }
      #expect(entries.isEmpty, "\(entries.map(\.path))")
    }
  }
}
