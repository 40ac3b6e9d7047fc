import Foundation
import Strata
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A writer killed in the middle of saving leaves the previous document, whole.
@Suite("The local store survives a writer killed mid-write")
struct StoreCrashTests {
  struct Generation: Codable, Sendable {
    let number: Int
    let payload: String
  }

  @Test func aKilledWriterLeavesTheLastWholeDocument() async throws {
    let directory = NSTemporaryDirectory() + "strata-crash-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/store.json"
    let file = DocumentFile<Generation>(path: path, version: 1)
    for round in 1...3 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: CLIRunner.built("strata-store-probe"))
      process.arguments = [path]
      try process.run()
      // Let it write a few generations, then kill it at whatever point it has reached.
      let deadline = ContinuousClock.now + .seconds(20)
      var seen = 0
      while seen < round + 2, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(5))
        seen = (try? file.load())?.number ?? seen
      }
      try await Task.sleep(for: .milliseconds(Int.random(in: 0...15)))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      #expect(process.terminationReason == .uncaughtSignal)

      let survivor = try #require(try file.load(), "a whole document is there")
      let marker = String(survivor.number) + ";"
      #expect(survivor.number >= round + 2)
      #expect(survivor.payload.count == ((2 << 20) / marker.count) * marker.count)
      #expect(survivor.payload.hasPrefix(marker) && survivor.payload.hasSuffix(marker))
    }
  }
}
