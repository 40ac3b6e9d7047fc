import DemoKit
import Foundation
import Strata
import StrataSandbox
import Testing

/// `settings`: a person's own choices, kept between runs, per account, checked before anything
/// is written, honoured by the commands, and safe with processes writing at once.
@Suite("strata-demo: settings")
struct SettingsCLITests {
  @Test func aSettingIsKeptCheckedAndHonoured() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let listed = try await cli.run(api + ["settings"])
      #expect(listed.stdout.contains("page-size      10     default"), "\(listed.stdout)")
      let set = try await cli.run(api + ["settings", "set", "page-size", "3"])
      #expect(set.status == 0 && set.stdout.contains("page-size  3      account"))
      let posts = try await cli.run(api + ["posts"])
      #expect(posts.stdout.contains("showing 1–3 of 150"), "the setting is the default limit")
      let limited = try await cli.run(api + ["posts", "--limit", "2"])
      #expect(limited.stdout.contains("showing 1–2 of 150"), "an option still wins")
      let refused: [([String], String)] = [
        (["page-size", "0"], "page-size cannot be '0': a whole number from 1 to 100"),
        (["page-size", "ten"], "a whole number"),
        (["offline-first", "maybe"], "offline-first cannot be 'maybe': true or false"),
        (["pagesize", "3"], "no setting 'pagesize'; the settings are page-size, offline-first"),
      ]
      for (arguments, message) in refused {
        let result = try await cli.run(api + ["settings", "set"] + arguments)
        #expect(result.status == 65 && result.stderr.contains(message), "\(result.stderr)")
      }
      #expect(try await cli.run(api + ["settings", "set", "page-size"]).status == 2)
      #expect(try await cli.run(api + ["settings"]).stdout.contains("page-size      3 "))
      #expect(try await cli.run(api + ["settings", "reset"]).stdout.contains("10     default"))
      #expect(server.journal.count(method: "GET", path: "/posts") == 2, "settings send nothing")
    }
  }

  /// `offline-first` keeps every change on the device, as `--offline` does.
  @Test func offlineFirstKeepsChangesOnTheDevice() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      #expect(try await cli.run(api + ["settings", "set", "offline-first", "yes"]).status == 0)
      let made = try await cli.run(api + ["post", "create", "--title", "T", "--body", "b"])
      #expect(made.stdout.contains("kept on this device"), "\(made.stdout)")
      #expect(server.journal.count(method: "POST", path: "/posts/add") == 0)
    }
  }

  /// One account's settings are not another's, nor the signed-out device's.
  @Test func eachAccountHasItsOwnSettings() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      _ = try await cli.run(api + ["login", "--username", "emilys", "--password", "emilyspass"])
      _ = try await cli.run(api + ["settings", "set", "page-size", "7"])
      _ = try await cli.run(api + ["logout"])
      #expect(try await cli.run(api + ["settings"]).stdout.contains("page-size      10 "))
      _ = try await cli.run(
        api + ["login", "--username", "michaelw", "--password", "michaelwpass"])
      #expect(try await cli.run(api + ["settings"]).stdout.contains("page-size      10 "))
      _ = try await cli.run(api + ["login", "--username", "emilys", "--password", "emilyspass"])
      #expect(try await cli.run(api + ["settings"]).stdout.contains("page-size      7 "))
    }
  }

  /// Eight processes writing the two settings at once: both are kept.
  @Test func processesWritingAtOnceKeepEachOthersSettings() async throws {
    try await withSandbox { server in
      let cli = try CLIRunner()
      let api = ["--api", server.baseURL.absoluteString]
      let results = try await withThrowingTaskGroup(of: CLIRunner.Result.self) { group in
        for index in 0..<8 {
          let arguments =
            index.isMultiple(of: 2)
            ? ["settings", "set", "page-size", String(index + 2)]
            : ["settings", "set", "offline-first", "true"]
          group.addTask { try await cli.run(api + arguments) }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
      let listed = try await cli.run(api + ["--json", "settings"])
      let rows =
        try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: String]]
      #expect(rows?.allSatisfy { $0["from"] == "account" } == true, "\(listed.stdout)")
    }
  }
}

/// The CLI speaks the language `LANG` asks for; `--json` stays English and stable.
@Suite("strata-demo: localized text")
struct LocalizedCLITests {
  @Test func germanHeadingsAndMessagesEnglishJSON() async throws {
    try await withSandbox { server in
      var cli = try CLIRunner()
      cli.extraEnvironment = ["LANG": "de_DE.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""]
      let api = ["--api", server.baseURL.absoluteString]
      let todos = try await cli.run(api + ["todos", "--limit", "2"])
      #expect(todos.stdout.hasPrefix("ID  ERLEDIGT  BENUTZER  AUFGABE"), "\(todos.stdout)")
      let json = try await cli.run(api + ["--json", "settings"])
      #expect(json.stdout.contains("\"from\" : \"default\""))
      let offline = try await cli.run([
        "--api", "http://127.0.0.1:9", "--set", "RETRY_MAX_RETRIES=0", "todos",
      ])
      #expect(offline.stderr.contains("fehlgeschlagen"), "\(offline.stderr)")
      let refused = try await cli.run(api + ["post", "create", "--title", " ", "--body", "b"])
      #expect(refused.status == 65 && refused.stderr.contains("Gib dem Beitrag einen Titel."))
      let help = try await cli.run(["--help"])
      #expect(help.stdout.contains("Befehle:") && help.stdout.contains("Globale Optionen:"))
      let usage = try await cli.run(["posts", "--limt", "3"])
      #expect(usage.status == 2 && usage.stderr.contains("unbekannte Option '--limt'"))
    }
  }

  /// The tour's narration, every step, in German.
  @Test func theTourSpeaksGerman() async throws {
    var cli = try CLIRunner()
    cli.extraEnvironment = ["LC_ALL": "de_DE.UTF-8"]
    let tour = try await cli.run(["tour"])
    #expect(tour.status == 0, "\(tour.stderr)")
    for phrase in [
      "[1/15] Config, Log und der DI-Container", "[15/15] Abmelden", "die Sandbox sah:",
      "Tour fertig in",
    ] {
      #expect(tour.stdout.contains(phrase), "\(phrase)")
    }
    #expect(!tour.stdout.contains("sandbox saw"), "no English narration left")
  }
}
