import Foundation
import Strata
import Testing

@Suite("Config includes")
struct ConfigIncludeTests {
  @Test func includeIsRelativeToTheIncludingFileAndLaterWins() throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: directory.path + "/sub", withIntermediateDirectories: true)
    try directory.write("sub/base.xcconfig", "A = base\nB = base\n")
    let main = try directory.write("main.xcconfig", "#include \"sub/base.xcconfig\"\nB = main\n")
    let config = try Config(file: main, environment: [:])
    #expect(config.value("A")?.value == "base")
    #expect(config.value("B")?.value == "main")
    #expect(config.value("A")?.origin.description == directory.path + "/sub/base.xcconfig:1")
  }

  @Test func optionalMissingIncludeIsSkipped() throws {
    let directory = try TemporaryDirectory()
    let main = try directory.write(
      "main.xcconfig", "#include? \"absent.xcconfig\" // local\nA = 1\n")
    let config = try Config(file: main, environment: [:])
    #expect(config.value("A")?.value == "1")
    #expect(config.skippedIncludes.map(\.line) == [1])
  }

  @Test func requiredMissingIncludeIsAnErrorAtTheDirective() throws {
    let directory = try TemporaryDirectory()
    let main = try directory.write("main.xcconfig", "A = 1\n  #include \"absent.xcconfig\"\n")
    let error = try #require(throws: ConfigError.self) { try Config(file: main, environment: [:]) }
    #expect(error.kind == .includeNotFound(path: directory.path + "/absent.xcconfig"))
    #expect(error.location == SourceLocation(file: main, line: 2, column: 3))
  }

  @Test func includeCycleNamesTheChain() throws {
    let directory = try TemporaryDirectory()
    let a = try directory.write("a.xcconfig", "#include \"b.xcconfig\"\n")
    try directory.write("b.xcconfig", "X = 1\n#include \"a.xcconfig\"\n")
    let error = try #require(throws: ConfigError.self) { try Config(file: a, environment: [:]) }
    let b = directory.path + "/b.xcconfig"
    #expect(error.kind == .includeCycle(chain: [a, b, a]))
    #expect(error.location == SourceLocation(file: b, line: 2, column: 1))
    #expect(error.message.contains("a.xcconfig → \(b) → \(a)"))
  }

  @Test func selfIncludeIsACycle() throws {
    let directory = try TemporaryDirectory()
    let a = try directory.write("a.xcconfig", "#include \"a.xcconfig\"\n")
    let error = try #require(throws: ConfigError.self) { try Config(file: a, environment: [:]) }
    #expect(error.kind == .includeCycle(chain: [a, a]))
  }

  @Test func errorsInsideAnIncludeNameTheIncludedFile() throws {
    let directory = try TemporaryDirectory()
    try directory.write("inner.xcconfig", "OK = 1\r\nBAD = \"open\r\n")
    let main = try directory.write("main.xcconfig", "#include \"inner.xcconfig\"\n")
    let error = try #require(throws: ConfigError.self) { try Config(file: main, environment: [:]) }
    #expect(
      error.location == SourceLocation(file: directory.path + "/inner.xcconfig", line: 2, column: 7)
    )
  }

  @Test func missingTopLevelFileIsUnreadable() throws {
    let error = try #require(throws: ConfigError.self) {
      try Config(file: "/nonexistent/strata.xcconfig", environment: [:])
    }
    #expect(error.kind == .unreadableFile(path: "/nonexistent/strata.xcconfig"))
  }

  @Test func shippedConfigFilesLoad() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    let release = try Config(file: root + "/Config/Release.xcconfig", environment: [:])
    #expect(try release.url(.api).absoluteString == "https://dummyjson.com")
    #expect(try release.duration(.requestTimeout) == .seconds(30))
    let debug = try Config(file: root + "/Config/Debug.xcconfig", environment: [:])
    #expect(try debug.string(.api) == "sandbox")
    #expect(try debug.duration(.retryBaseDelay) == .milliseconds(200))
    #expect(try LogThresholds(config: debug).level(for: "networking") == .info)
    #expect(try LogThresholds(config: debug).level(for: "auth") == .debug)
  }
}
