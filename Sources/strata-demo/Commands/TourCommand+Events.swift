import DemoKit
import Foundation
import Strata
import StrataSandbox

/// The tour's step 14: a write made by another `strata-demo` process arrives here as a live
/// event (`GET /events`, the sandbox keeping writes as `sandbox serve --keep-writes` does).
extension TourCommand {
  /// `files` is the tour's own folder: the other process keeps its files there.
  static func liveEvents(
    _ app: AppContext, _ sandbox: SandboxServer, _ tour: Narrator, files: String
  ) async throws {
    tour.step(14, text("tour.step14"))
    sandbox.keepsWrites = true
    defer { sandbox.keepsWrites = false }
    let feed = try app.resolve((any EventsRepository).self)
    let title = text("tour.otherTitle")
    // Off the main actor: the feed is read while this step waits for the other process.
    let arrival = Task.detached { () throws -> (event: FeedEvent, replayed: Int)? in
      var replayed = 0
      // From the feed's start: what was kept before is replayed, then the write arrives.
      for try await event in feed.follow(after: "0") {
        let shown = FeedEvent(event)
        if shown.title == title { return (shown, replayed) }
        replayed += 1
      }
      return nil
    }
    defer { arrival.cancel() }
    // A hang guard, not a verdict on speed: the feed is followed before the other write.
    let patience = ContinuousClock.now + .seconds(60)
    while sandbox.journal.count(method: "GET", path: "/events") == 0,
      ContinuousClock.now < patience
    {
      try await Task.sleep(for: .milliseconds(20))
    }
    tour.say(text("tour.following"))
    let other = try await otherProcess(
      [
        "--api", sandbox.baseURL.absoluteString, "post", "create", "--title", title, "--body",
        "Strata",
      ],
      home: files + "/other-process")
    tour.say(
      text("tour.otherProcess", ["pid": String(other.pid), "status": String(other.status)]))
    let guardTask = Task.detached {
      try await Task.sleep(for: .seconds(60))
      arrival.cancel()
    }
    defer { guardTask.cancel() }
    guard other.status == 0, let (event, replayed) = try? await arrival.value else {
      throw tour.failure(text("tour.noEvent"))
    }
    tour.say(
      text.plural(
        "tour.eventArrived", count: replayed, ["event": EventsCommand.line(event, data: false)]))
    tour.evidence()
  }

  /// This program's binary: the running one, or — when the tour runs inside another program
  /// (a test runner) — the `strata-demo` built beside it.
  private static func strataDemo() throws -> URL {
    let running =
      Bundle.main.executableURL
      ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    if running.lastPathComponent == "strata-demo" { return running }
    let beside = running.deletingLastPathComponent().appendingPathComponent("strata-demo")
    guard FileManager.default.isExecutableFile(atPath: beside.path) else {
      throw CommandFailure(text("tour.noBinary", ["path": beside.path]))
    }
    return beside
  }

  /// Runs this program again with `arguments`, its files (session, cache, store) under `home`,
  /// so nothing of the user's own is touched; its output is not shown.
  private static func otherProcess(_ arguments: [String], home: String) async throws -> (
    pid: Int32, status: Int32
  ) {
    try FileManager.default.createDirectory(
      atPath: home, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    let process = Process()
    process.executableURL = try strataDemo()
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    for name in ["HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"] {
      environment[name] = home
    }
    environment["STRATA_TOKEN_STORE"] = "memory"
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let status = try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Int32, any Error>) in
      process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
      do { try process.run() } catch {
        process.terminationHandler = nil
        continuation.resume(throwing: error)
      }
    }
    return (process.processIdentifier, status)
  }
}
