import DemoKit
import Foundation
import Testing

/// The sentences a person reads come from string resources in every language, complete and
/// with the same placeholders; the language is the one the environment chose.
@Suite("Localized text")
struct LocalizationTests {
  static let sources = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources")

  static func placeholders(_ text: String) -> Set<String> {
    var found: Set<String> = []
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      found.insert(String(rest[rest.index(after: open)..<close]))
      rest = rest[rest.index(after: close)...]
    }
    return found
  }

  @Test func everyLanguageHasEveryKeyWithTheSamePlaceholders() {
    let english = Localized.load("en")
    #expect(english.count >= 30)
    for language in Localized.languages.dropFirst() {
      let table = Localized.load(language)
      #expect(Set(table.keys) == Set(english.keys), "\(language): keys differ")
      for (key, sentence) in english {
        #expect(
          Self.placeholders(table[key] ?? "") == Self.placeholders(sentence),
          "\(language): \(key)'s placeholders differ")
      }
    }
    for key in english.keys where key.hasSuffix(".one") {
      #expect(english[String(key.dropLast(4)) + ".other"] != nil, "\(key) has no .other")
    }
  }

  /// Every key the code names exists (a key typed wrong would show as itself).
  @Test func everyKeyTheCodeNamesExists() throws {
    let english = Localized.load("en")
    let files = FileManager.default.enumerator(atPath: Self.sources.path)?.allObjects as? [String]
    var named: Set<String> = []
    for file in (files ?? []) where file.hasSuffix(".swift") {
      let text = try String(
        contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
      for prefix in ["Localized.current(\"", "text(\"", "plural(\"", "label(\""] {
        var rest = Substring(text)
        while let start = rest.range(of: prefix) {
          let key = rest[start.upperBound...].prefix { $0 != "\"" }
          // A key ending in "." is a prefix the code completes (`heading.` + a name).
          if !key.hasSuffix(".") {
            switch prefix {
            case "plural(\"": named.insert(key + ".one")
            case "label(\"": named.insert("label." + key)
            default: named.insert(String(key))
            }
          }
          rest = rest[start.upperBound...]
        }
      }
      if let headings = text.range(of: "Headings.of(") {
        for name in text[headings.upperBound...].prefix(while: { $0 != ")" })
          .split(separator: ",")
        {
          named.insert("heading." + name.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")))
        }
      }
    }
    #expect(named.count >= 20)
    #expect(named.subtracting(english.keys).isEmpty, "\(named.subtracting(english.keys))")
  }

  @Test func theEnvironmentChoosesTheLanguage() {
    #expect(Localized.chosenLanguage(["LANG": "de_DE.UTF-8"]) == "de")
    #expect(Localized.chosenLanguage(["LANG": "de_DE.UTF-8", "LC_ALL": "C"]) == "en")
    #expect(Localized.chosenLanguage(["LANG": "en_US", "LC_MESSAGES": "de_AT"]) == "de")
    #expect(Localized.chosenLanguage(["LANG": "fr_FR.UTF-8"]) == "en", "no French: English")
    #expect(Localized.chosenLanguage(["LANG": "", "LC_ALL": ""]) == "en")
    let german = Localized(language: "de")
    #expect(german("heading.title") == "TITEL")
    #expect(german.owner(.device) == "kein Konto (abgemeldet)")
    #expect(
      german.plural("device.count", count: 1_000, ["owner": "x"]) == "1.000 auf diesem Gerät für x")
    #expect(
      Localized(language: "en").plural("device.count", count: 1, ["owner": "x"])
        == "1 on this device for x")
  }

  /// English and German use the one-form for exactly 1: none, like many, is plural.
  @Test func zeroIsPluralInBothLanguages() {
    let arguments = ["bytes": "0", "api": "x"]
    for language in ["en", "de"] {
      let text = Localized(language: language)
      #expect(
        text.plural("cache.cleared", count: 0, arguments)
          == text("cache.cleared.other", arguments.merging(["count": "0"]) { $1 }))
      #expect(
        text.plural("cache.cleared", count: 1, arguments)
          == text("cache.cleared.one", arguments.merging(["count": "1"]) { $1 }))
      #expect(
        text("cache.cleared.one", arguments) != text("cache.cleared.other", arguments),
        "the forms differ, so the rule shows")
    }
  }

  /// A duration is written as the language writes numbers: a decimal comma and a space in
  /// German, the CLI's compact form in English.
  @Test func aDurationIsWrittenTheLanguagesWay() {
    let (english, german) = (Localized(language: "en"), Localized(language: "de"))
    #expect(english.duration(.milliseconds(2300)) == "2.3s")
    #expect(german.duration(.milliseconds(2300)) == "2,3 s")
    #expect(english.duration(.milliseconds(250)) == "250ms")
    #expect(german.duration(.milliseconds(250)) == "250 ms")
    #expect(german.duration(.seconds(1234)) == "1234,0 s", "no grouping in a duration")
  }
}
