import DemoKit
import Foundation
import Strata

/// `events`: follows the API's live feed (the sandbox's `GET /events`, Strata's own addition)
/// and prints a line per event — with `--json`, one object per line — until interrupted.
@MainActor
enum EventsCommand {
  nonisolated static let commands = [
    Command(
      "events",
      options: [
        OptionSpec(name: "after", valueName: "ID"), OptionSpec(name: "count", valueName: "N"),
      ],
      example: "strata-demo events --after 0 --count 1", run: .inApp(follow))
  ]

  static func follow(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let feed = try app.resolve((any EventsRepository).self)
    let json = invocation.json
    let after = invocation.option("after")
    // 0: until interrupted.
    let count = try invocation.integer("count", default: 0, in: 1...1_000_000)
    let reader = Task {
      var seen = 0
      for try await event in feed.follow(after: after) {
        let shown = FeedEvent(event)
        if json {
          if let line = try? Output.json(shown, pretty: false) { Terminal.out(line) }
        } else {
          Terminal.out(Self.line(shown))
        }
        seen += 1
        if seen == count { break }
      }
    }
    // The first signal ends the stream (exit 0); a second ends the process at once.
    let (signals, stopping) = SyncCommand.interrupting(reader)
    defer { for source in stopping { source.cancel() } }
    Terminal.error(Localized.current("events.following"))
    // The embedded sandbox lives and dies with this command, and nothing else writes to it:
    // say in one sentence what gives the feed something to show.
    if app.sandbox != nil { Terminal.error(Localized.current("events.embedded")) }
    do {
      try await reader.value
    } catch  where signals.withLock({ $0 }) > 0 {
      // Stopped by the user: the feed did not fail.
    }
    return json ? .none : Output(text: .line(Localized.current("watch.stopped")), json: nil)
  }

  /// `7  posts.kept  #252  “Hello”  {"id":252,…}`: the event's id, type, what it is about in
  /// the user's language, and — with `data` — its data as it came.
  static func line(_ event: FeedEvent, data: Bool = true) -> String {
    let text = Localized.current
    var line = (event.id.map { $0 + "  " } ?? "") + event.type
    if let id = event.recordId { line += "  #\(id)" }
    if let title = event.title { line += "  " + text("events.title", ["title": title]) }
    if data { line += "  " + UntrustedText.sanitize(event.data, limit: 2000) }
    return line
  }
}
