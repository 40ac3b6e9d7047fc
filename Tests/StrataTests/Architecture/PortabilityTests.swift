import Foundation
import StrataTesting
import Testing

/// Nothing here compiles for Apple platforms, so the spellings that only Linux accepts are
/// caught here: each must sit inside a branch that only Linux compiles (`#if os(Linux)`,
/// `canImport(Glibc)` or `Musl`, or the `#else` of a Darwin check). What the library, the
/// demo, the benchmarks and the tests write outside such a branch builds on macOS and iOS too.
@Suite("Linux-only spellings stay behind their guards")
struct PortabilityTests {
  /// A spelling only Linux accepts, and why.
  struct Rule: Sendable {
    let pattern: String
    let why: String
    /// Text every match contains: a file or line without it skips the regular expression.
    var hint: String {
      [
        "Glibc.", "MSG_NOSIGNAL", "SOCK_", "posix_spawn", "environ", "/dev/", "/proc/", "import",
        "st_", "pthread_t", ".rawValue", "poll(", "dlsym", "ioctl",
      ].first {
        pattern.replacingOccurrences(of: "\\", with: "").contains($0)
      } ?? pattern
    }
    /// Applies to the tests and the benchmarks only (the library may name such a path as
    /// data, e.g. a default it uses on Linux).
    var testsOnly = false
    /// A run-time check that, present in the file, guards the uses (a device that may be
    /// missing is looked for first).
    var unlessFileChecks: String?
  }

  static let rules: [Rule] = [
    Rule(pattern: #"\bGlibc\."#, why: "there is no Glibc module on Darwin"),
    Rule(pattern: #"\bMSG_NOSIGNAL\b"#, why: "Darwin has SO_NOSIGPIPE instead"),
    Rule(pattern: #"\bSOCK_(STREAM|DGRAM|RAW)\.rawValue"#, why: "a plain Int32 on Darwin"),
    Rule(
      pattern: #"^\s*import (Glibc|Musl|FoundationNetworking)\b"#,
      why: "no such module on Darwin: import it under canImport"),
    Rule(pattern: #"\bst_[amc]tim\b"#, why: "Darwin's stat calls it st_[amc]timespec"),
    Rule(pattern: #"\bpthread_t\(\)"#, why: "an optional pointer on Darwin: no empty init"),
    Rule(
      pattern: #"\b(SHUT|IPPROTO|AF|PF|SO|SOL|POLL)_[A-Z]+\.rawValue"#,
      why: "Glibc's imported enum; a plain integer on Darwin"),
    Rule(pattern: #"\bpoll\([^,]+,\s*UInt\("#, why: "nfds_t is UInt32 on Darwin: say nfds_t"),
    Rule(
      pattern: #"\bUInt(8|16|32|64)?\([^()]*\.st_(dev|rdev)\)"#,
      why: "dev_t is a signed Int32 on Darwin (a negative one traps): convert by bit pattern"),
    Rule(pattern: #"\bdlsym\(nil\b"#, why: "RTLD_DEFAULT is not nil on Darwin"),
    Rule(pattern: #"\bioctl\([^,]+,\s*(0x[0-9A-Fa-f]+|[0-9]+)\b"#, why: "request numbers differ"),
    Rule(pattern: #"posix_spawn_file_actions_t\(\)"#, why: "an opaque pointer on Darwin"),
    Rule(pattern: #"\benviron\b"#, why: "not visible to Swift on Darwin"),
    Rule(pattern: #"/dev/(ptmx|pts)"#, why: "Linux's pseudo-terminal devices"),
    Rule(pattern: #"/proc/"#, why: "procfs is Linux's", testsOnly: true),
    Rule(
      pattern: "/dev/full", why: "Linux's; look for it first", testsOnly: true,
      unlessFileChecks: #"fileExists(atPath: "/dev/full")"#),
  ]

  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `file:line: what (why)` for every unguarded use.
  static func violations(in text: String, file: String, isTest: Bool) -> [String] {
    var found: [String] = []
    // Most files hold no rule's text at all; the rules are looked for line by line only in
    // the others (Foundation's string searches are slow on Linux: 40,000 lines × 8 rules of
    // them took seconds).
    let candidates = rules.filter { rule in
      (isTest || !rule.testsOnly) && text.contains(rule.hint)
        && !(rule.unlessFileChecks.map(text.contains) ?? false)
    }
    guard !candidates.isEmpty else { return [] }
    // One frame per open #if: whether its current branch compiles only on Linux, and whether
    // an earlier branch of the chain was a Darwin check (so an #else is not Darwin).
    var frames: [(linuxOnly: Bool, afterDarwin: Bool)] = []
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let directive = raw.first { $0 != " " && $0 != "\t" } == "#"
      let line = directive ? raw.trimmingCharacters(in: .whitespaces) : ""
      if line.hasPrefix("#if ") {
        frames.append((isLinux(line), isDarwin(line)))
        continue
      }
      if line.hasPrefix("#elseif "), !frames.isEmpty {
        let darwinBefore = frames[frames.count - 1].afterDarwin
        frames[frames.count - 1] = (isLinux(line), darwinBefore || isDarwin(line))
        continue
      }
      if line == "#else", !frames.isEmpty {
        frames[frames.count - 1].linuxOnly = frames[frames.count - 1].afterDarwin
        continue
      }
      if line.hasPrefix("#endif") {
        _ = frames.popLast()
        continue
      }
      guard !frames.contains(where: \.linuxOnly) else { continue }
      let applying = candidates.filter { raw.contains($0.hint) }
      guard !applying.isEmpty else { continue }
      let code = withoutComment(String(raw))
      for rule in applying where code.range(of: rule.pattern, options: .regularExpression) != nil {
        found.append(
          "\(file):\(index + 1): \(code.trimmingCharacters(in: .whitespaces)) (\(rule.why))")
      }
    }
    return found
  }

  /// Whether only Linux compiles a branch under `condition`: every alternative of an `||`
  /// names Linux (`canImport(Glibc) || canImport(Darwin)` is compiled on Darwin too).
  private static func isLinux(_ condition: String) -> Bool {
    condition.components(separatedBy: "||").allSatisfy { alternative in
      [
        "canImport(Glibc)", "canImport(Musl)", "canImport(FoundationNetworking)",
        "!canImport(Darwin)",
      ]
      .contains { alternative.contains($0) }
        || (alternative.contains("os(Linux)") && !alternative.contains("!os(Linux)"))
    }
  }

  private static func isDarwin(_ condition: String) -> Bool {
    ["canImport(Darwin)", "os(macOS)", "os(iOS)", "canImport(os)"].contains {
      condition.contains($0) && !condition.contains("!" + $0)
    }
  }

  /// The line without a `//` comment (one that starts the line or follows a space: a URL's
  /// `://` in a string is code).
  private static func withoutComment(_ line: String) -> String {
    guard let range = line.range(of: #"(^|\s)//.*$"#, options: .regularExpression) else {
      return line
    }
    return String(line[..<range.lowerBound])
  }

  /// Reading the tree is seconds of CPU: done on a thread of its own, off the cooperative pool.
  @Test func everySwiftFileKeepsLinuxSpellingsGuarded() async throws {
    let (files, found) = try await offThePool { try Self.unguardedUses() }
    #expect(files > 300, "the tree was read")
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  /// How many files were read, and every unguarded use in them.
  private static func unguardedUses() throws -> (files: Int, found: [String]) {
    var found: [String] = []
    var files = 0
    for folder in ["Sources", "Tests", "Snippets"] {
      let base = Self.root.appendingPathComponent(folder).path
      let names = FileManager.default.enumerator(atPath: base)?.allObjects as? [String] ?? []
      for name in names where name.hasSuffix(".swift") {
        let text = try String(contentsOfFile: base + "/" + name, encoding: .utf8)
        let isTest = folder != "Sources" || name.hasPrefix("strata-bench/")
        // The two files that name these spellings as data.
        guard
          !name.hasSuffix("Architecture/PortabilityTests.swift")
            && !name.hasSuffix("Architecture/PrivacyManifestTests.swift")
        else { continue }
        found += Self.violations(in: text, file: folder + "/" + name, isTest: isTest)
        files += 1
      }
    }
    return (files, found)
  }

  /// The check itself: a planted use is found outside a guard and left alone inside one.
  @Test func theCheckFindsWhatIsUnguarded() {
    let planted = """
      import Foundation
      #if canImport(Darwin)
        let kill = Darwin.kill
      #else
        let kill = Glibc.kill
      #endif
      #if os(Linux)
        let table = "/proc/net/route"
      #endif
      let flags = Int32(MSG_NOSIGNAL)
      let table = "/proc/self/status"  // a path in a comment: /proc/ is fine here
      #if canImport(Darwin)
        let type = SOCK_STREAM.rawValue
      #endif
      let url = "http://example/dev/pts"
      let full = "/dev/full"
      """
    let found = Self.violations(in: planted, file: "P.swift", isTest: true)
    #expect(
      found.map { $0.split(separator: ":")[1] } == ["10", "11", "13", "15", "16"], "\(found)")
    #expect(Self.violations(in: planted, file: "P.swift", isTest: false).count == 3)
    let checked = planted + "\nif FileManager.default.fileExists(atPath: \"/dev/full\") {}"
    #expect(Self.violations(in: checked, file: "P.swift", isTest: true).count == 4)
  }

  /// Each rule of the second round, planted outside a guard and inside one; a condition that
  /// Darwin also meets (`canImport(Glibc) || canImport(Darwin)`) guards nothing.
  @Test func theSecondRoundOfRulesFindsEachSpelling() {
    let spellings = [
      "import Glibc", "import FoundationNetworking", "let t = info.st_mtim",
      "var thread = pthread_t()", "let how = SHUT_RDWR.rawValue",
      "_ = poll(&fds, UInt(fds.count), 10)", "let device = UInt64(info.st_dev)",
      "let symbol = dlsym(nil, name)", "_ = ioctl(fd, 0x5413, &size)",
    ]
    for spelling in spellings {
      let bare = Self.violations(in: spelling, file: "P.swift", isTest: false)
      #expect(bare.count == 1, "\(spelling): \(bare)")
      let guarded = "#if canImport(Glibc)\n  \(spelling)\n#endif"
      #expect(Self.violations(in: guarded, file: "P.swift", isTest: false).isEmpty, "\(spelling)")
      let both = "#if canImport(Glibc) || canImport(Darwin)\n  \(spelling)\n#endif"
      #expect(Self.violations(in: both, file: "P.swift", isTest: false).count == 1, "\(spelling)")
    }
    let networking = "#if canImport(FoundationNetworking)\n  import FoundationNetworking\n#endif"
    #expect(Self.violations(in: networking, file: "P.swift", isTest: false).isEmpty)
    #expect(Self.violations(in: "_ = poll(&fds, 1, 10)", file: "P.swift", isTest: false).isEmpty)
  }
}
