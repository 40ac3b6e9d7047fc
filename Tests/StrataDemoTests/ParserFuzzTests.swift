import Foundation
import StrataTesting
import Testing

@testable import strata_demo

@Suite("Argument parser, generated input")
struct ParserFuzzTests {
  static let tokens: [String] = {
    let words =
      CommandTable.commands.flatMap(\.words) + [
        "frob", "", " ", "-", "--", "-h", "-x", "é✓", "0", "-1", "99999999999999999999",
      ]
    let options = (CommandTable.globalOptions + CommandTable.commands.flatMap(\.options)).map(
      \.name)
    let flags =
      options.flatMap { ["--\($0)", "--\($0)=", "--\($0)=x", "-\($0)"] } + [
        "--bogus", "--=", "---", "--limit=--",
      ]
    let values = [
      "5", "abc", "KEY=VALUE", "=", "=x", "http://127.0.0.1:1", "sandbox", "trace",
      "Config/x.xcconfig", "\n", "--",
    ]
    return words + flags + values
  }()

  @Test func fiveThousandRandomVectorsGiveInvocationsOrUsageErrorsOnly() async throws {
    let (parsed, usageErrors, problems) = try await offThePool { () -> (Int, Int, [String]) in
      var random = SeededRandom(seed: 0xA5A5)
      var usageErrors = 0
      var parsed = 0
      var problems: [String] = []
      for _ in 0..<5_000 {
        let arguments = (0..<Int.random(in: 0...7, using: &random)).map { _ in
          Self.tokens[Int.random(in: 0..<Self.tokens.count, using: &random)]
        }
        do {
          let invocation = try CommandLineParser.parse(arguments)
          parsed += 1
          if let command = invocation.command, !invocation.help {
            let allowed = Set(command.options.map(\.name))
            // `[NAME]` is an optional positional.
            let required = command.positionals.filter { !$0.hasPrefix("[") }.count
            if !(required...command.positionals.count).contains(invocation.positionals.count)
              || !invocation.options.keys.allSatisfy(allowed.contains)
            {
              problems.append("\(arguments) parsed into an invocation its command refuses")
            }
          } else if !(invocation.help || invocation.version) {
            problems.append("\(arguments): no command, no --help, no --version")
          }
        } catch let error as UsageError {
          usageErrors += 1
          if error.message.isEmpty { problems.append("\(arguments): a usage error without words") }
        } catch {
          problems.append("\(arguments) threw \(error)")
        }
      }
      return (parsed, usageErrors, problems)
    }
    #expect(problems.isEmpty, "\(problems.prefix(10))")
    #expect(
      usageErrors > 1000 && parsed > 100,
      "both outcomes exercised: \(parsed) parsed, \(usageErrors) usage errors")
  }

  @Test(arguments: [
    (["users", "--limit", "5", "--json"], "users"), (["--json", "users", "--limit=5"], "users"),
    (["post", "create", "--title", "T", "--body", "B", "--user-id", "1"], "post create"),
    (["--set", "A=1", "--set", "B==2", "config", "show"], "config show"),
    (["todo", "toggle", "--", "3"], "todo toggle"),
  ])
  func validLinesParse(_ arguments: [String], _ command: String) throws {
    let invocation = try CommandLineParser.parse(arguments)
    #expect(invocation.command?.name == command)
  }

  @Test func setKeepsEverythingAfterTheFirstEquals() throws {
    let invocation = try CommandLineParser.parse(["--set", "B==2", "--set=C=x=y", "config", "show"])
    #expect(invocation.sets.map(\.key) == ["B", "C"])
    #expect(invocation.sets.map(\.value) == ["=2", "x=y"])
  }
}

@Suite("The README's exit statuses")
struct ExitStatusDocumentationTests {
  /// Every status the CLI can exit with has its row in the README's table, and the help
  /// names it.
  @Test func everyExitStatusIsDocumented() throws {
    let readme = try String(
      contentsOf: CLIRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let rows = Set(
      readme.split(separator: "\n").filter { $0.hasPrefix("| ") }.compactMap {
        Int32($0.dropFirst(2).prefix { $0 != " " })
      })
    for status in ExitStatus.allCases {
      #expect(rows.contains(status.rawValue), "README has no row for exit \(status.rawValue)")
      #expect(CommandTable.help.contains(" \(status.rawValue) "), "help omits \(status.rawValue)")
    }
  }
}
