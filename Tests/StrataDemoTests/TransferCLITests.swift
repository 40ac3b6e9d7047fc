import Foundation
import Strata
import StrataSandbox
import Testing

/// Pictures and downloads from the command line, through the built binary: `user --avatar`
/// keeps the picture in the HTTP cache, `download` saves to a file, resumes after a cut on the
/// retry, and with `--resume` in a later run.
@Suite("CLI: pictures and downloads")
struct TransferCLITests {
  /// Waits a busy machine may need (the debug sandbox draws and hashes a 270 KB icon); a hang
  /// guard, not a verdict.
  static let patient = ["--set", "IDLE_TIMEOUT=300s", "--set", "DEADLINE=300s"]

  /// The second run takes the picture from the HTTP cache on disk: one request in all.
  @Test func aPictureIsSavedThenTakenFromTheCache() async throws {
    try await CLIRunner.withSandbox(Self.patient) { server, cli, api in
      let file = cli.home + "/michael.png"
      let first = try await cli.run(api + ["user", "2", "--avatar", file])
      #expect(first.status == 0, "\(first.stderr)")
      #expect(first.stdout.contains("Name:") && first.stdout.contains("from the server"))
      let png = try Data(contentsOf: URL(fileURLWithPath: file))
      #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
      let second = try await cli.run(api + ["user", "2", "--avatar", file])
      let bytes = png.count.formatted(.number.locale(Locale(identifier: "en")))
      #expect(second.stdout.contains("saved to \(file): \(bytes) bytes, from the HTTP cache"))
      #expect(server.journal.count(method: "GET", path: "/icon/michaw/128") == 1)
    }
  }

  /// The user is shown even when the picture cannot be saved or read; the picture's failure
  /// is said on its own and the exit status is 1.
  @Test func aFailedPictureStillShowsTheUser() async throws {
    try await CLIRunner.withSandbox(Self.patient) { server, cli, api in
      let unwritable = try await cli.run(
        api + ["user", "2", "--avatar", cli.home + "/no/dir/x.png"])
      #expect(unwritable.status == 1)
      #expect(unwritable.stdout.contains("Name:     Michael Williams"))
      #expect(unwritable.stderr.contains("cannot write the picture"), "\(unwritable.stderr)")
      server.faults.add(
        .init(method: "GET", path: "/icon/michaw/128", count: 10, action: .respond(status: 404)))
      let missing = try await cli.run(
        api + ["--no-cache", "user", "2", "--avatar", cli.home + "/m.png"])
      #expect(missing.status == 1 && missing.stdout.contains("Michael Williams"))
      #expect(missing.stderr.contains("the picture could not be saved"), "\(missing.stderr)")
    }
  }

  /// A cut that no retry mends leaves the part, says so, and names the command that
  /// continues it; that command finishes the file from where it stopped.
  @Test func aCutDownloadSaysThePartIsKeptAndResumeGoesOn() async throws {
    try await CLIRunner.withSandbox(Self.patient) { server, cli, api in
      server.faults.add(.init(method: "GET", path: "/icon/emilys/300", action: .truncateBody))
      let file = cli.home + "/cut.png"
      let cut = try await cli.run(
        api + ["--set", "RETRY_MAX_RETRIES=0", "download", "icon/emilys/300", file])
      #expect(cut.status == 1, "\(cut.stderr)")
      #expect(
        cut.stderr.contains("are kept in \(file).part")
          && cut.stderr.contains("strata-demo download icon/emilys/300 \(file) --resume"),
        "\(cut.stderr)")
      let resumed = try await cli.run(api + ["download", "icon/emilys/300", file, "--resume"])
      #expect(resumed.status == 0 && resumed.stdout.hasSuffix("(resumed)\n"), "\(resumed.all)")
    }
  }

  /// The hint names the command as typed, with the URL's password and secret query values
  /// masked: they never reach the terminal.
  @Test func theResumeHintMasksTheURLsSecrets() async throws {
    try await CLIRunner.withSandbox(Self.patient) { server, cli, api in
      server.faults.add(.init(method: "GET", path: "/icon/emilys/300", action: .truncateBody))
      let file = cli.home + "/cut.png"
      let base = server.baseURL.absoluteString.replacingOccurrences(
        of: "http://", with: "http://emily:s3cr3t-pass@")
      let address = base + "/icon/emilys/300?token=tok-abcdef123&size=300"
      let cut = try await cli.run(
        api + ["--set", "RETRY_MAX_RETRIES=0", "download", address, file])
      #expect(cut.status == 1, "\(cut.stderr)")
      #expect(cut.stderr.contains("--resume"), "\(cut.stderr)")
      for secret in ["s3cr3t-pass", "tok-abcdef123"] {
        #expect(!cut.all.contains(secret), "\(secret): \(cut.all)")
      }
      #expect(cut.stderr.contains("<redacted>") && cut.stderr.contains("size=300"))
    }
  }

  /// A body cut at half is resumed by the retry (`Range` + `If-Range`), said "(resumed)".
  @Test func aCutDownloadIsResumedByTheRetry() async throws {
    try await CLIRunner.withSandbox(Self.patient) { server, cli, api in
      server.faults.add(.init(method: "GET", path: "/icon/emilys/300", action: .truncateBody))
      let file = cli.home + "/emily.png"
      let saved = try await cli.run(api + ["download", "icon/emilys/300", file])
      #expect(saved.status == 0, "\(saved.stderr)")
      let size = try Data(contentsOf: URL(fileURLWithPath: file)).count
      let bytes = size.formatted(.number.locale(Locale(identifier: "en")))
      #expect(saved.stdout == "saved \(file): \(bytes) bytes (resumed)\n")
      let asked = server.journal.entries.filter { $0.path == "/icon/emilys/300" }
      #expect(asked.count == 2 && asked[1].header("Range")?.hasPrefix("bytes=") == true)
    }
  }

  /// Without retries the cut ends the run and leaves the part; `--resume` continues it, and
  /// without `--resume` a part is started over.
  @Test func aPartIsContinuedOnlyWhenAsked() async throws {
    try await CLIRunner.withSandbox(Self.patient) { server, cli, api in
      let api = api + ["--set", "RETRY_MAX_RETRIES=0"]
      let file = cli.home + "/emily.png"
      server.faults.add(.init(method: "GET", path: "/icon/emilys/300", action: .truncateBody))
      let cut = try await cli.run(api + ["download", "icon/emilys/300", file])
      #expect(cut.status == 1 && FileManager.default.fileExists(atPath: file + ".part"))
      #expect(!FileManager.default.fileExists(atPath: file))
      let resumed = try await cli.run(
        api + ["--json", "download", "icon/emilys/300", file, "--resume"])
      #expect(
        resumed.status == 0 && resumed.stdout.contains(#""resumed" : true"#), "\(resumed.all)")
      server.faults.add(.init(method: "GET", path: "/icon/emilys/300", action: .truncateBody))
      _ = try await cli.run(api + ["download", "icon/emilys/300", file])
      let again = try await cli.run(api + ["download", "icon/emilys/300", file])
      #expect(again.status == 0 && !again.stdout.contains("resumed"))
      #expect(server.journal.entries.last?.header("Range") == nil)
    }
  }

  /// A disk that fills while the body streams in (here: a file size limit of 8 KiB): a clear
  /// error, exit 1, the part kept for a later `--resume`, no file under the name.
  @Test func aFullDiskIsAClearErrorAndKeepsThePart() async throws {
    try await CLIRunner.withSandbox(Self.patient) { server, cli, api in
      var limited = cli
      limited.executable = "/bin/sh"
      let file = cli.home + "/big.png"
      let result = try await limited.run(
        ["-c", "ulimit -f 16; exec \"$0\" \"$@\"", CLIRunner.binary] + api + [
          "--set", "RETRY_MAX_RETRIES=0", "download", "icon/emilys/300", file,
        ])
      #expect(result.status == 1, "\(result.all)")
      #expect(
        result.stderr.contains("big.png.part: write failed: File too large"), "\(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: file))
      let part = try FileManager.default.attributesOfItem(atPath: file + ".part")[.size] as? Int
      #expect(part == 16 * 512)
    }
  }

  /// A gzipped answer arrives decoded: saved whole, not taken for a cut against its coded
  /// length.
  @Test func aCompressedAnswerIsSavedDecoded() async throws {
    try await CLIRunner.withSandbox(Self.patient) { _, cli, api in
      let file = cli.home + "/users.json"
      let saved = try await cli.run(api + ["download", "users?limit=30", file])
      #expect(saved.status == 0, "\(saved.stderr)")
      let users = try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: file)))
      #expect((users as? [String: Any])?["limit"] as? Int == 30)
    }
  }

  @Test func aURLOfAnotherSchemeIsAUsageError() async throws {
    let result = try await CLIRunner().run(["download", "ftp://example.com/x", "/tmp/x"])
    #expect(result.status == 2 && result.stderr.contains("URL must be a path on the API"))
  }
}
