import Foundation
import Strata
import StrataTesting
import Testing

@Suite("Config includes")
struct ConfigIncludeTests {
  /// A FIFO as the file or as an include used to block the read for ever; it is refused,
  /// with the include's location. (The time limit is the runner's hang guard.)
  @Test(.timeLimit(.minutes(5))) func aFIFOIsRefusedNotRead() throws {
    let directory = try TemporaryDirectory()
    let fifo = directory.path + "/fifo.xcconfig"
    #expect(mkfifo(fifo, 0o600) == 0)
    let direct = #expect(throws: ConfigError.self) { try Config(file: fifo, environment: [:]) }
    #expect(direct?.kind == .unreadableFile(path: fifo))
    #expect(direct?.message == "configuration file '\(fifo)' is a FIFO, not a regular file")
    let main = try directory.write("main.xcconfig", "A = 1\n#include \"fifo.xcconfig\"\n")
    let included = #expect(throws: ConfigError.self) { try Config(file: main, environment: [:]) }
    #expect(included?.location == SourceLocation(file: main, line: 2, column: 1))
  }

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

  /// Seven 1 KB files, each including the next ten times: 10⁶ includes unbounded. The load
  /// stops at the 257th include, at that directive, having read a few hundred kilobytes.
  @Test func anIncludeFanOutIsBoundedAtTheDirective() throws {
    let directory = try TemporaryDirectory()
    let padding = "// " + String(repeating: "x", count: 1000) + "\n"
    for level in 0..<7 {
      let includes =
        level < 6 ? String(repeating: "#include \"f\(level + 1).xcconfig\"\n", count: 10) : ""
      try directory.write("f\(level).xcconfig", padding + "K\(level) = \(level)\n" + includes)
    }
    let error = try #require(throws: ConfigError.self) {
      try Config(file: directory.path + "/f0.xcconfig", environment: [:])
    }
    #expect(error.kind == .tooManyIncludes(limit: 256))
    #expect(error.location?.file.hasSuffix(".xcconfig") == true && error.location?.line ?? 0 >= 3)
    #expect(error.description.contains("more than 256 includes"))
  }

  /// The bounds are exact: 256 includes load and the 257th is refused; a chain of 32 files
  /// loads and a 33rd is refused, naming the directive that went past.
  @Test func theIncludeBoundsAreExact() throws {
    let directory = try TemporaryDirectory()
    try directory.write("one.xcconfig", "ONE = 1\n")
    for (count, loads) in [(256, true), (257, false)] {
      let main = try directory.write(
        "count-\(count).xcconfig", String(repeating: "#include \"one.xcconfig\"\n", count: count))
      if loads {
        #expect(try Config(file: main, environment: [:]).value("ONE")?.value == "1")
      } else {
        let error = try #require(throws: ConfigError.self) {
          try Config(file: main, environment: [:])
        }
        #expect(error.kind == .tooManyIncludes(limit: 256) && error.location?.line == 257)
      }
    }
    for (files, loads) in [(32, true), (33, false)] {
      for level in 0..<files {
        let next = level + 1 < files ? "#include \"d\(files)-\(level + 1).xcconfig\"\n" : ""
        try directory.write("d\(files)-\(level).xcconfig", "D\(level) = \(level)\n" + next)
      }
      let top = directory.path + "/d\(files)-0.xcconfig"
      if loads {
        #expect(try Config(file: top, environment: [:]).value("D31")?.value == "31")
      } else {
        let error = try #require(throws: ConfigError.self) {
          try Config(file: top, environment: [:])
        }
        #expect(error.location?.file.hasSuffix("d33-31.xcconfig") == true, "\(error)")
        #expect(error.description.contains("nested more than 32 deep"))
      }
    }
  }

  /// 250 includes of a 100 KB file are within the count but 25 MB in all: refused. Parsing
  /// the first 16 MiB is CPU work, so it runs off the cooperative pool.
  @Test func theBytesOneLoadReadsAreBounded() async throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "big.xcconfig", "// " + String(repeating: "y", count: 100_000) + "\nB = 1\n")
    let main = try directory.write(
      "main.xcconfig", String(repeating: "#include \"big.xcconfig\"\n", count: 250))
    let failure = try await offThePool { () -> ConfigError? in
      do {
        _ = try Config(file: main, environment: [:])
        return nil
      } catch let error as ConfigError {
        return error
      }
    }
    #expect(failure?.kind == .includesTooLarge(limit: 16 << 20))
  }

  /// A 200 MB file (sparse: no disk used) is refused after reading its first 4 MiB.
  @Test(arguments: [false, true])
  func aHugeFileIsRefusedWithoutBeingReadWhole(_ included: Bool) throws {
    let directory = try TemporaryDirectory()
    let huge = directory.path + "/huge.xcconfig"
    #expect(FileManager.default.createFile(atPath: huge, contents: nil))
    let handle = try #require(FileHandle(forWritingAtPath: huge))
    try handle.truncate(atOffset: 200 << 20)
    try handle.close()
    let main =
      included ? try directory.write("main.xcconfig", "A = 1\n#include \"huge.xcconfig\"\n") : huge
    let error = try #require(throws: ConfigError.self) { try Config(file: main, environment: [:]) }
    #expect(error.kind == .fileTooLarge(path: huge, limit: 4 << 20))
    #expect(error.location?.line == (included ? 2 : nil))
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
    #expect(try release.duration(.idleTimeout) == .seconds(30))
    let debug = try Config(file: root + "/Config/Debug.xcconfig", environment: [:])
    #expect(try debug.string(.api) == "sandbox")
    #expect(try debug.duration(.retryBaseDelay) == .milliseconds(200))
    #expect(try LogThresholds(config: debug).level(for: "networking") == .info)
    #expect(try LogThresholds(config: debug).level(for: "auth") == .debug)
  }
}
