import Foundation
import StrataSandbox
import Testing

@testable import strata_demo

/// The README and the DocC articles cannot go stale: every Swift sample in them is the shown
/// part of a file in `Snippets/` (which `swift build` compiles), the README's first sample runs
/// against the sandbox, and every `strata-demo …` example prints what the README shows.
@Suite("Documentation: compiled samples, checked examples")
struct DocumentationTests {
  static let root = CLIRunner.packageRoot

  static func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// The README and every DocC article, by path.
  static func documents() throws -> [String] {
    let articles = "Sources/Strata/Strata.docc"
    let names = try FileManager.default.contentsOfDirectory(
      atPath: root.appendingPathComponent(articles).path)
    return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "\(articles)/\($0)" }
  }

  /// The contents of every fenced block of `language` in `markdown`.
  static func blocks(_ language: String, in markdown: String) -> [[String]] {
    var blocks: [[String]] = []
    var current: [String]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```\(language)" {
        current = []
      } else if current != nil, line == "```" {
        blocks.append(current ?? [])
        current = nil
      } else {
        current?.append(String(line))
      }
    }
    return blocks
  }

  /// What a snippet shows as DocC would: everything outside `// snippet.hide` … `// snippet.show`
  /// without the marker lines, and each `// snippet.NAME` … `// snippet.end` slice on its own.
  static func shownParts(ofSnippet text: String) -> [String] {
    var whole: [String] = []
    var slices: [String: [String]] = [:]
    var hidden = false
    var slice: String?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      let marker = line.trimmingCharacters(in: .whitespaces)
      if marker.hasPrefix("// snippet.") {
        switch marker.dropFirst("// snippet.".count) {
        case "hide": hidden = true
        case "show": hidden = false
        case "end": slice = nil
        case let name: slice = String(name)
        }
        continue
      }
      guard !hidden else { continue }
      whole.append(line)
      if let slice { slices[slice, default: []].append(line) }
    }
    return ([whole] + slices.values).map(trimmed)
  }

  /// Without blank lines at either end, and without the indentation every line shares (a
  /// slice from inside a function reads as the article shows it).
  static func trimmed(_ lines: [String]) -> String {
    let kept = Array(lines.drop { $0.isEmpty }.reversed().drop { $0.isEmpty }.reversed())
    let indent =
      kept.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
    return kept.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n")
  }

  /// Where compiled samples live: `Snippets/` (programs of their own, on the public API), and
  /// the CLI's samples in this target (they use the command table's own types).
  static let sampleFolders = ["Snippets", "Tests/StrataDemoTests/Samples"]

  @Test func everySwiftSampleIsTheShownPartOfACompiledSnippet() throws {
    var shown: Set<String> = []
    for name in Self.sampleFolders {
      let folder = Self.root.appendingPathComponent(name)
      for file in try FileManager.default.contentsOfDirectory(atPath: folder.path)
      where file.hasSuffix(".swift") {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        shown.formUnion(Self.shownParts(ofSnippet: text))
      }
    }
    var samples = 0
    for document in try Self.documents() {
      for block in Self.blocks("swift", in: try Self.text(document)) {
        samples += 1
        let sample = Self.trimmed(block)
        let compiled = shown.contains(sample)
        #expect(compiled, "\(document): a Swift sample that is no snippet's shown part:\n\(sample)")
      }
    }
    #expect(samples >= 6, "the README and the articles show samples")
  }

  /// The article's manifest, as a package beside a checkout named `Strata`: SwiftPM resolves
  /// it, the `Strata` product included (a wrong identity or product fails to resolve, as the
  /// second half shows).
  @Test func theArticlesManifestResolvesWithAPathDependency() async throws {
    let article = try Self.text("Sources/Strata/Strata.docc/UsingStrataInAnApp.md")
    let manifest = try #require(
      Self.blocks("", in: article).first { $0.first?.hasPrefix("// swift-tools-version") == true }
    ).joined(separator: "\n")
    #expect(manifest.contains(#".package(path: "../Strata")"#))
    let cli = try CLIRunner()
    func resolve(_ manifest: String, in name: String) async throws -> CLIRunner.Result {
      let app = cli.home + "/\(name)/MyApp"
      try FileManager.default.createDirectory(
        atPath: app + "/Sources/MyApp", withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        atPath: cli.home + "/\(name)/Strata", withDestinationPath: Self.root.path)
      try manifest.write(toFile: app + "/Package.swift", atomically: true, encoding: .utf8)
      try "import Strata\n".write(
        toFile: app + "/Sources/MyApp/main.swift", atomically: true, encoding: .utf8)
      var swift = cli
      swift.executable = "/usr/bin/env"
      return try await swift.run(["swift", "package", "--package-path", app, "show-dependencies"])
    }
    let resolved = try await resolve(manifest, in: "as-shown")
    #expect(resolved.status == 0, "\(resolved.all)")
    #expect(resolved.stdout.contains("strata<"), "\(resolved.stdout)")
    let misnamed = manifest.replacingOccurrences(
      of: #"package: "Strata")"#, with: #"package: "Strata-main")"#)
    let refused = try await resolve(misnamed, in: "misnamed")
    #expect(refused.status != 0 && refused.all.contains("unknown package"), "\(refused.all)")
  }

  /// The README's first sample, built as a snippet, run with the API pointed at the sandbox.
  @Test func theFirstRequestSampleRunsAgainstTheSandbox() async throws {
    try await withSandbox { server in
      var cli = try CLIRunner()
      cli.executable = CLIRunner.built("FirstRequest")
      cli.extraEnvironment = ["STRATA_API": server.baseURL.absoluteString]
      // In a folder of its own, as in a new package: it needs no file of the checkout.
      let elsewhere = URL(fileURLWithPath: cli.home)
      let result = try await cli.run([], in: elsewhere)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout == "Emily\n")
      #expect(server.journal.count(method: "GET", path: "/users/1") == 1)
      // A failure is a sentence and exit 1, never a trap.
      cli.extraEnvironment = ["STRATA_API": "http://127.0.0.1:9", "STRATA_RETRY_MAX_RETRIES": "0"]
      let failed = try await cli.run([], in: elsewhere)
      #expect(failed.status == 1, "\(failed.stderr)")
      #expect(failed.stderr.contains("error: GET /users/1"), "\(failed.stderr)")
    }
  }

  /// "Getting started"'s sign-in, a whole program: signs in as Emily for her account and
  /// reads `/auth/me` with the token.
  @Test func theSignInSampleRunsAgainstTheSandbox() async throws {
    try await withSandbox { server in
      var cli = try CLIRunner()
      cli.executable = CLIRunner.built("SignIn")
      cli.extraEnvironment = ["STRATA_API": server.baseURL.absoluteString]
      let result = try await cli.run([], in: URL(fileURLWithPath: cli.home))
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout == "Emily\n")
      #expect(server.journal.count(method: "GET", path: "/auth/me") == 1)
    }
  }

  /// "Transport or middleware?": the article's replay transport refuses a body over the
  /// limits it is given alone, and answers through a whole `NetworkService` — no network.
  @Test func theTransportSampleKeepsItsLimitsAndServesTheService() async throws {
    var cli = try CLIRunner()
    cli.executable = CLIRunner.built("Transport")
    let result = try await cli.run([])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "over 16 bytes: refused\nEmily\nanswers: 1\n")
  }

  /// "Adding a feature", followed: its snippet wires the guide's quotes feature through a
  /// container, a network answering as DummyJSON does, the public `LoadStateOwner.loading`
  /// and `Page.request`, then the fake — and prints what each view model ended with.
  @Test func theAddingAFeatureGuideRunsAsWritten() async throws {
    var cli = try CLIRunner()
    cli.executable = CLIRunner.built("AddingAFeature")
    let result = try await cli.run([])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        live: ["Steve Jobs"] via GET quotes?limit=10&skip=0, state idle
        fake: 3 quotes, state idle

        """)
  }

  /// One `$ strata-demo …` line of a console block and the output shown under it: stdout,
  /// then stderr (none with `2>/dev/null`), then `(exit N)` unless it exits 0.
  struct Example {
    var arguments: [String]
    var ignoresStderr = false
    var expected: [String] = []
  }

  static func examples(in block: [String]) -> [Example] {
    var examples: [Example] = []
    for line in block {
      if line.hasPrefix("$ strata-demo ") {
        var words = shellWords(String(line.dropFirst("$ strata-demo ".count)))
        let quiet = words.last == "2>/dev/null"
        if quiet { words.removeLast() }
        examples.append(Example(arguments: words, ignoresStderr: quiet))
      } else if !examples.isEmpty {
        examples[examples.count - 1].expected.append(line)
      }
    }
    return examples
  }

  /// Words split at spaces, `'…'` kept whole.
  static func shellWords(_ line: String) -> [String] {
    var words: [String] = []
    var word: String?
    var quoted = false
    for character in line {
      if character == "'" {
        quoted.toggle()
        word = word ?? ""
      } else if character == " ", !quoted {
        if let finished = word { words.append(finished) }
        word = nil
      } else {
        word = (word ?? "") + String(character)
      }
    }
    if let word { words.append(word) }
    return words
  }

  /// Whether `actual` is `expected`, where `[..]` in a line stands for any text and a line
  /// `...` for any number of lines.
  static func matches(_ expected: ArraySlice<String>, _ actual: ArraySlice<String>) -> Bool {
    guard let first = expected.first else { return actual.isEmpty }
    if first == "..." {
      return actual.indices.map { actual[$0...] }.contains { matches(expected.dropFirst(), $0) }
        || matches(expected.dropFirst(), actual[actual.endIndex...])
    }
    guard let line = actual.first, lineMatches(first, line) else { return false }
    return matches(expected.dropFirst(), actual.dropFirst())
  }

  static func lineMatches(_ pattern: String, _ line: String) -> Bool {
    let parts = pattern.components(separatedBy: "[..]")
    guard parts.count > 1 else { return pattern == line }
    guard line.hasPrefix(parts[0]) else { return false }
    var rest = line.dropFirst(parts[0].count)
    for part in parts.dropFirst().dropLast() {
      guard let found = rest.range(of: part) else { return false }
      rest = rest[found.upperBound...]
    }
    return rest.hasSuffix(parts[parts.count - 1])
  }

  @Test func everyCLIExampleInTheReadmePrintsWhatItShows() async throws {
    let readme = try Self.text("README.md")
    let examples = Self.blocks("console", in: readme).flatMap(Self.examples)
    #expect(examples.count >= 8, "the README shows its commands")
    #expect(examples.contains { $0.arguments == ["tour"] }, "the tour is shown")
    #expect(examples.contains { $0.arguments == ["--har", "tour.har", "tour"] }, "and its HAR")
    // As a newcomer types it: one terminal (one home), the default embedded sandbox — a new
    // one for each command, the same server to the session: a login shown early serves the
    // commands after it.
    let cli = try CLIRunner()
    defer { try? FileManager.default.removeItem(atPath: cli.home) }
    for example in examples {
      var expected = example.expected
      var status: Int32 = 0
      if let last = expected.last, last.hasPrefix("(exit "), last.hasSuffix(")") {
        status = Int32(last.dropFirst("(exit ".count).dropLast()) ?? -1
        expected.removeLast()
      }
      // In the terminal's own folder: a file an example writes (`--har tour.har`) lands there.
      let result = try await cli.run(example.arguments, in: URL(fileURLWithPath: cli.home))
      let shown = result.stdout + (example.ignoresStderr ? "" : result.stderr)
      let lines = shown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let actual = lines.last == "" ? lines.dropLast() : lines[...]
      let command = "strata-demo " + example.arguments.joined(separator: " ")
      #expect(result.status == status, "\(command): exit \(result.status)\n\(result.stderr)")
      let same = Self.matches(expected[...], actual)
      #expect(same, "\(command) printed:\n\(actual.joined(separator: "\n"))")
    }
  }

  /// "Adding a feature", step 6: the command's summary is the sentence `command.<words>` in
  /// the strings files — until both have it, `--help` shows the key itself.
  @Test func aNewCommandsSummaryIsAKeyInTheStringsFiles() {
    let quotes = QuotesCommands.commands[0]
    #expect(quotes.name == "quotes" && quotes.usage == "strata-demo quotes [--limit N] [--skip N]")
    #expect(quotes.summary == "command.quotes", "no sentence yet: the key shows")
    #expect(CommandTable.commands.allSatisfy { !$0.summary.hasPrefix("command.") })
  }

  /// "Going deeper" lists every article by its title, so a new one is found from the README.
  @Test func theReadmeListsEveryArticle() throws {
    let readme = try Self.text("README.md")
    for path in try Self.documents().dropFirst() where !path.hasSuffix("/Strata.md") {
      let title = try Self.text(path).split(separator: "\n").first?.dropFirst(2) ?? ""
      #expect(readme.contains("- **\(title)**"), "the README does not list \(path)")
    }
  }

  @Test func theReadmeNamesEveryCommand() throws {
    let readme = try Self.text("README.md").replacingOccurrences(of: "\n", with: " ")
    for command in CommandTable.commands {
      #expect(readme.contains("`\(command.name)`"), "the README does not name `\(command.name)`")
    }
  }

  @Test func theMatcherMasksOnlyWhatItSays() {
    #expect(
      Self.lineMatches("Tour complete in [..]: 22 requests", "Tour complete in 1.1s: 22 requests"))
    #expect(
      !Self.lineMatches("Tour complete in [..]: 22 requests", "Tour complete in 1s: 23 requests"))
    #expect(Self.matches(["a", "...", "d"], ["a", "b", "c", "d"]))
    #expect(!Self.matches(["a", "...", "d"], ["a", "b", "c"]))
    #expect(
      Self.shellWords("post create --title '   ' --body x") == [
        "post", "create", "--title", "   ", "--body", "x",
      ])
  }
}
