import DemoKit
import Foundation
import Testing

@testable import strata_demo

/// What the CLI says comes from the string resources: every command's summary and every
/// option's help has a sentence, and no sentence is left as an English literal in the code.
@Suite("strata-demo: every sentence from the resources")
struct LocalizedSourcesTests {
  @Test func everySummaryAndOptionHelpHasASentence() {
    let english = Localized.load("en")
    let options = CommandTable.globalOptions + CommandTable.commands.flatMap(\.options)
    let keys =
      CommandTable.commands.map { "command." + $0.words.joined(separator: ".") }
      + options.map(\.helpKey)
    #expect(keys.count > 40)
    #expect(Set(keys).subtracting(english.keys).isEmpty, "\(Set(keys).subtracting(english.keys))")
    let german = Localized(language: "de")
    #expect(german("command.todo.add").hasPrefix("Eine Aufgabe hinzufügen"))
  }

  /// A literal with two words in a row is a sentence someone reads — unless it is a command's
  /// name, a command line shown as an example, or said to a log (logs stay English).
  @Test func noEnglishSentenceIsLeftInTheCode() throws {
    let folder = CLIRunner.packageRoot.appendingPathComponent("Sources/strata-demo")
    let files = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
    let names = Set(CommandTable.commands.map(\.name))
    let literal = /"((?:[^"\\]|\\.)*)"/
    let interpolation = /\\\((?:[^()]|\([^()]*\))*\)/
    let twoWords = /[A-Za-z]{2,} +[A-Za-z]{2,}/
    var found: [String] = []
    for file in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for (number, line) in text.split(separator: "\n").enumerated() {
        let code = line.trimmingCharacters(in: .whitespaces)
        if code.hasPrefix("//") || code.contains("Log.") || code.contains("expected:") {
          continue
        }
        for match in line.matches(of: literal) {
          let value = String(match.1)
          let words = value.replacing(interpolation, with: "")
          guard words.contains(twoWords), !names.contains(value),
            !value.hasPrefix("strata-demo "), !value.hasPrefix("printf ")
          else { continue }
          found.append("\(file):\(number + 1): \(value)")
        }
      }
    }
    #expect(found.isEmpty, "English left in the code:\n\(found.joined(separator: "\n"))")
  }
}
