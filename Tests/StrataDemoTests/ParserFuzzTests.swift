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

  @Test func fiveThousandRandomVectorsGiveInvocationsOrUsageErrorsOnly() async {
    var random = SeededRandom(seed: 0xA5A5)
    var usageErrors = 0
    var parsed = 0
    for index in 0..<5_000 {
      if index % 250 == 0 { await Task.yield() }  // let other tests' tasks run on the 2-thread pool
      let arguments = (0..<Int.random(in: 0...7, using: &random)).map { _ in
        Self.tokens[Int.random(in: 0..<Self.tokens.count, using: &random)]
      }
      do {
        let invocation = try CommandLineParser.parse(arguments)
        parsed += 1
        if let command = invocation.command, !invocation.help {
          #expect(invocation.positionals.count == command.positionals.count, "\(arguments)")
          let allowed = Set(command.options.map(\.name))
          #expect(invocation.options.keys.allSatisfy(allowed.contains), "\(arguments)")
        } else {
          #expect(invocation.help || invocation.version, "\(arguments)")
        }
      } catch let error as UsageError {
        usageErrors += 1
        #expect(!error.message.isEmpty)
      } catch {
        Issue.record("\(arguments) threw \(error)")
      }
    }
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
