import Foundation
import Strata

/// The sentences a person reads, from string resources (`Strings/<language>.json`, shipped
/// with DemoKit by SwiftPM: no tool only Xcode has), in the language the user chose —
/// `LC_ALL`, then `LC_MESSAGES`, then `LANG` (`de_DE.UTF-8` is `de`) on Linux, the preferred
/// languages on Apple platforms — else English. `--json` and logs never go through it: they
/// stay English and stable.
///
/// A sentence is a key; `{name}` in it is filled from the arguments. A plural has one key per
/// form (`key.one`, `key.other`), chosen by the language's rule for `count` — English and
/// German: one for exactly 1. A key missing in a language falls back to English (a test fails
/// on any missing key, and on a sentence whose placeholders differ between languages).
public struct Localized: Sendable {
  /// The languages there are sentences for, English first (the fallback).
  public static let languages = ["en", "de"]

  /// The sentences of the language the process's environment chose, unless the process
  /// chose one itself (``speak(_:)``).
  public static var current: Localized { chosen.withLock { $0 } }

  private static let chosen = Locked(
    Localized(language: chosenLanguage(ProcessInfo.processInfo.environment)))

  /// Speaks `language` in this process from now on, whatever the environment says: output
  /// meant for programs (`--json`) is English on every machine.
  public static func speak(_ language: String) {
    let sentences = Localized(language: language)
    chosen.withLock { $0 = sentences }
  }

  public let language: String
  private let table: [String: String]
  private let english: [String: String]

  /// The sentences in `language` (`en`, `de`), English for any other.
  public init(language: String) {
    self.language = Self.languages.contains(language) ? language : "en"
    english = Self.load("en")
    table = self.language == "en" ? english : Self.load(self.language)
  }

  /// The language an environment asks for: the first of `LC_ALL`, `LC_MESSAGES`, `LANG` that
  /// is set and not empty (`C` and `POSIX` mean English); on Apple platforms, with none of
  /// those, the user's first preferred language.
  public static func chosenLanguage(_ environment: [String: String]) -> String {
    let named = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }
      .first { !$0.isEmpty }
    #if canImport(Darwin)
      let chosen = named ?? Locale.preferredLanguages.first ?? "en"
    #else
      let chosen = named ?? "en"
    #endif
    let code = chosen.prefix { $0.isLetter }.lowercased()
    return languages.contains(code) ? code : "en"
  }

  /// The sentence `key` with its `{placeholders}` filled (the key itself when no language has
  /// it: a missing sentence shows).
  public func callAsFunction(_ key: String, _ arguments: [String: String] = [:]) -> String {
    sentence(key, arguments) ?? key
  }

  /// The sentence `key` with its `{placeholders}` filled; nil when no language has it (the
  /// caller says it otherwise).
  public func sentence(_ key: String, _ arguments: [String: String] = [:]) -> String? {
    (table[key] ?? english[key]).map { Self.fill($0, arguments) }
  }

  /// A usage placeholder (`FILE`, `KEY=VALUE`, `[mine|theirs]`) in the user's language: each
  /// upper-case word the sentences `placeholder.<WORD>` name is replaced (`DATEI`,
  /// `SCHLÜSSEL=WERT`); others stay as written.
  public func placeholder(_ text: String) -> String {
    var shown = ""
    var word = ""
    for character in text + " " {
      if character.isUppercase || (character == "_" && !word.isEmpty) {
        word.append(character)
        continue
      }
      shown += word.isEmpty ? "" : sentence("placeholder." + word) ?? word
      word = ""
      shown.append(character)
    }
    return String(shown.dropLast())
  }

  /// How old something is, in the largest unit that keeps it readable: `42 s`, `12 min`,
  /// `5 h`, `3 days`.
  public func age(_ seconds: Int) -> String {
    switch seconds {
    case ..<60: plural("age.seconds", count: max(0, seconds))
    case ..<7200: plural("age.minutes", count: seconds / 60)
    case ..<172_800: plural("age.hours", count: seconds / 3600)
    default: plural("age.days", count: seconds / 86_400)
    }
  }

  /// A wait or a run time as the language writes it: `1.5s` and `250ms` in English, `1,5 s`
  /// and `250 ms` in German — seconds from one second up, with one decimal.
  public func duration(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let total = Double(seconds) + Double(attoseconds) / 1e18
    let locale = Locale(identifier: language)
    guard total >= 1 else {
      let milliseconds = (total * 1000).rounded()
      return self(
        "duration.milliseconds", ["value": milliseconds.formatted(.number.locale(locale))])
    }
    let shown = total.formatted(
      .number.precision(.fractionLength(1)).grouping(.never).locale(locale))
    return self("duration.seconds", ["value": shown])
  }

  /// The form of `key` for `count` (`{count}` is filled too).
  public func plural(_ key: String, count: Int, _ arguments: [String: String] = [:]) -> String {
    var arguments = arguments
    arguments["count"] = count.formatted(.number.locale(Locale(identifier: language)))
    return self(key + (count == 1 ? ".one" : ".other"), arguments)
  }

  /// Whose something is: `account user-1`, `no account (signed out)`.
  public func owner(_ owner: DataOwner) -> String {
    switch owner {
    case .account(let account): self("owner.account", ["account": account])
    case .device: self("owner.device")
    }
  }

  /// Every key and sentence of `language`, as shipped.
  public static func load(_ language: String) -> [String: String] {
    guard
      let url = Bundle.module.url(
        forResource: language, withExtension: "json", subdirectory: "Strings"),
      let data = try? Data(contentsOf: url),
      let table = try? JSONDecoder().decode([String: String].self, from: data)
    else { return [:] }
    return table
  }

  private static func fill(_ template: String, _ arguments: [String: String]) -> String {
    guard template.contains("{") else { return template }
    var text = template
    for (name, value) in arguments {
      text = text.replacingOccurrences(of: "{\(name)}", with: value)
    }
    return text
  }
}
