import Foundation
import Testing

/// The GitHub workflow is the only place the Darwin branches compile and run: it has a job per
/// platform `Package.swift` declares — tests on macOS and an iOS simulator, builds for tvOS,
/// watchOS and visionOS — and nothing in it may fail quietly.
@Suite("The CI workflow covers every declared platform")
struct WorkflowTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The names of the jobs: the keys indented two spaces under `jobs:`.
  static func jobs(_ yaml: String) -> [String] {
    var inJobs = false
    var names: [String] = []
    for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("jobs:") {
        inJobs = true
        continue
      }
      if inJobs, let first = line.first, first != " ", first != "#" { inJobs = false }
      guard inJobs, line.hasPrefix("  "), !line.hasPrefix("   "), line.hasSuffix(":") else {
        continue
      }
      names.append(String(line.dropFirst(2).dropLast()))
    }
    return names
  }

  @Test func aJobPerPlatformAndNoneFailsQuietly() throws {
    let yaml = try String(
      contentsOf: Self.root.appendingPathComponent(".github/workflows/ci.yml"), encoding: .utf8)
    #expect(!yaml.contains("\t"), "YAML is indented with spaces")
    let jobs = Self.jobs(yaml)
    #expect(jobs == ["linux", "macos", "ios-tests", "tvos", "watchos", "visionos"], "\(jobs)")
    #expect(!yaml.contains("continue-on-error"), "a failing step fails the run")
    #expect(yaml.contains("xcodebuild test"), "the iOS job runs tests, not only a build")
    let manifest = try String(
      contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    for platform in ["macOS", "iOS", "tvOS", "watchOS", "visionOS"]
    where manifest.contains(".\(platform)(") {
      #expect(
        yaml.lowercased().contains("generic/platform=\(platform.lowercased())")
          || (platform == "macOS" && jobs.contains("macos"))
          || (platform == "iOS" && yaml.contains("platform=iOS Simulator")),
        "\(platform) is declared in Package.swift but no job builds it")
    }
  }

  @Test func theJobListReaderReadsOnlyJobs() {
    let yaml = "on:\n  push:\njobs:\n  a:\n    steps:\n      - run: x\n  b:\nafter:\n  c:\n"
    #expect(Self.jobs(yaml) == ["a", "b"])
  }
}
