import Foundation
import StrataTesting
import Testing

/// The GitHub workflow is the only place the Darwin branches compile and run: tests on macOS
/// and on a simulator of every platform `Package.swift` declares (the device picked from the
/// image's), a device build of each, one pinned Xcode — and nothing in it may fail quietly.
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

  static func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// Each `name: "…"` given to `kind` (`.executableTarget(`, `.testTarget(`) in the manifest,
  /// with the text of its declaration up to the next one.
  static func declarations(_ kind: String, in manifest: String) -> [(name: String, text: String)] {
    manifest.components(separatedBy: kind).dropFirst().compactMap { part in
      guard let open = part.range(of: "name: \""),
        let close = part[open.upperBound...].firstIndex(of: "\"")
      else { return nil }
      let text = part.components(separatedBy: "\n  .").first ?? part
      return (String(part[open.upperBound..<close]), text)
    }
  }

  @Test func aJobPerKindOfPlatformAndNoneFailsQuietly() throws {
    let yaml = try Self.text(".github/workflows/ci.yml")
    #expect(!yaml.contains("\t"), "YAML is indented with spaces")
    let jobs = Self.jobs(yaml)
    #expect(jobs == ["linux", "macos", "simulator-tests", "device-builds"], "\(jobs)")
    #expect(!yaml.contains("continue-on-error"), "a failing step fails the run")
    #expect(yaml.contains("xcodebuild test"), "the simulators run tests, not only a build")
    let manifest = try Self.text("Package.swift")
    let platforms = ["macOS", "iOS", "tvOS", "watchOS", "visionOS"].filter {
      manifest.contains(".\($0)(") || $0 == "visionOS"  // supported without a minimum
    }
    let matrix = "platform: [iOS, tvOS, watchOS, visionOS]"
    #expect(yaml.components(separatedBy: matrix).count == 3, "both matrices name every one")
    for platform in platforms where platform != "macOS" {
      #expect(matrix.contains(platform), "\(platform) is declared but no job builds it")
    }
    #expect(yaml.contains("-destination \"generic/platform=${{ matrix.platform }}\""))
    #expect(yaml.contains("platform=${{ matrix.platform }} Simulator,id=$device"))
    #expect(yaml.contains("device=$(.ci/simulator \"${{ matrix.platform }}\")"))
    #expect(!yaml.contains("name=iPhone"), "no simulator named: the image decides")
  }

  /// One Xcode for every Apple job, selected before anything builds.
  @Test func xcodeIsPinned() throws {
    let yaml = try Self.text(".github/workflows/ci.yml")
    #expect(yaml.range(of: #"\n  XCODE: "\d+\.\d+(\.\d+)?"\n"#, options: .regularExpression) != nil)
    let appleJobs = yaml.components(separatedBy: "runs-on: macos").count - 1
    #expect(appleJobs == 3)
    #expect(yaml.components(separatedBy: "- run: .ci/select-xcode").count - 1 == appleJobs)
  }

  /// The shared scheme the simulators test holds every test target that runs no executable
  /// (xcodebuild cannot build one for a simulator), and nothing else.
  @Test func theSimulatorSchemeHoldsTheLibraryTestTargets() throws {
    let manifest = try Self.text("Package.swift")
    let executables = Set(Self.declarations(".executableTarget(", in: manifest).map(\.name))
    #expect(executables.contains("strata-demo") && executables.contains("strata-store-probe"))
    let library = Self.declarations(".testTarget(", in: manifest).filter { target in
      !executables.contains { target.text.contains("\"\($0)\"") }
    }.map(\.name)
    #expect(library.sorted() == ["DemoKitTests", "StrataSandboxTests", "StrataTests"])
    let scheme = try Self.text(
      ".swiftpm/xcode/xcshareddata/xcschemes/Strata-Library-Tests.xcscheme")
    let named = scheme.components(separatedBy: "BlueprintName = \"").dropFirst().compactMap {
      $0.split(separator: "\"").first.map(String.init)
    }
    let testables = scheme.components(separatedBy: "<TestableReference").dropFirst().compactMap {
      $0.components(separatedBy: "BlueprintName = \"").dropFirst().first?
        .split(separator: "\"").first.map(String.init)
    }
    #expect(testables.sorted() == library.sorted())
    #expect(executables.isDisjoint(with: named), "no executable in the scheme")
    for name in ["Strata", "DemoKit"] {
      let own = try Self.text(".swiftpm/xcode/xcshareddata/xcschemes/\(name).xcscheme")
      #expect(own.contains("BlueprintName = \"\(name)\""))
    }
  }

  #if os(Linux) || os(macOS)
    /// `.ci/simulator` over a listing as `xcrun simctl` gives one: the first device of the
    /// newest runtime (a name with parentheses of its own), and a failure naming the
    /// platform when it has none.
    @Test func theSimulatorIsPickedFromWhatTheImageHas() throws {
      let folder = try TemporaryDirectory()
      let listing = """
        == Devices ==
        -- iOS 18.6 --
            iPhone 16 (11111111-1111-1111-1111-111111111111) (Shutdown)\u{20}
        -- iOS 26.1 --
            iPhone 17 Pro (5E0F2C1A-1B2C-4D3E-8F90-123456789ABC) (Shutdown)\u{20}
            iPhone Air (22222222-2222-2222-2222-222222222222) (Shutdown)
        -- watchOS 26.1 --
            Apple Watch Series 11 (46mm) (44444444-4444-4444-4444-444444444444) (Booted)
        -- Unavailable: com.apple.CoreSimulator.SimRuntime.iOS-17-0 --
        """
      let fake = folder.path + "/xcrun"
      try "#!/bin/sh\ncat <<'LIST'\n\(listing)\nLIST\n".write(
        toFile: fake, atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
      func pick(_ platform: String) throws -> (status: Int32, out: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [Self.root.appendingPathComponent(".ci/simulator").path, platform]
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = folder.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let (out, error) = (Pipe(), Pipe())
        (process.standardOutput, process.standardError) = (out, error)
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let failure = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
          process.terminationStatus, String(decoding: output, as: UTF8.self),
          String(decoding: failure, as: UTF8.self)
        )
      }
      #expect(try pick("iOS").out == "5E0F2C1A-1B2C-4D3E-8F90-123456789ABC\n", "the newest")
      #expect(try pick("watchOS").out == "44444444-4444-4444-4444-444444444444\n")
      let none = try pick("visionOS")
      #expect(none.status != 0 && none.out.isEmpty)
      #expect(none.error.contains("no available visionOS simulator"))
    }
  #endif

  @Test func theJobListReaderReadsOnlyJobs() {
    let yaml = "on:\n  push:\njobs:\n  a:\n    steps:\n      - run: x\n  b:\nafter:\n  c:\n"
    #expect(Self.jobs(yaml) == ["a", "b"])
  }
}
