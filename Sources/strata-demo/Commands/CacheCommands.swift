import DemoKit
import Strata

/// `cache show`, `cache clear`: the HTTP cache of the API in use (its answers to GETs, kept
/// to answer offline and to revalidate with a 304 instead of downloading again).
@MainActor
enum CacheCommands {
  nonisolated static let commands = [
    Command(
      "cache show", example: "strata-demo cache show", run: .inApp(show)),
    Command(
      "cache clear", example: "strata-demo cache clear", run: .inApp(clear)),
  ]

  struct Summary: Encodable {
    let api: String
    let kept: String
    let entries: Int
    let bytes: Int
    let directory: String?
  }

  static func show(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let summary = try summary(app)
    guard summary.kept != "off" else {
      return Output(text: .line(Localized.current("cache.off")), json: summary)
    }
    return Output(
      text: .detail([
        (Headings.label("api"), app.apiName()),
        (Headings.label("kept"), Localized.current("cache.kept." + summary.kept)),
        (Headings.label("entries"), String(summary.entries)),
        (Headings.label("bytes"), String(summary.bytes)),
        (Headings.label("directory"), summary.directory),
      ]), json: summary)
  }

  static func clear(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let before = try summary(app)
    let left = try app.resolve(NetworkOptions.self).cache?.removeAll() ?? []
    guard left.isEmpty else {
      throw CommandFailure(
        Localized.current(
          "cache.notCleared",
          [
            "count": String(left.count), "api": app.apiName(),
            "files": left.prefix(3).joined(separator: "; ") + (left.count > 3 ? "; …" : ""),
          ]))
    }
    return Output(
      text: .line(
        Localized.current.plural(
          "cache.cleared", count: before.entries,
          ["bytes": String(before.bytes), "api": app.apiName()])),
      json: before)
  }

  private static func summary(_ app: AppContext) throws -> Summary {
    let cache = try app.resolve(NetworkOptions.self).cache
    return Summary(
      api: app.apiName(Localized(language: "en")),
      kept: cache == nil ? "off" : cache?.directory == nil ? "memory" : "disk",
      entries: cache?.count ?? 0, bytes: cache?.byteCount ?? 0, directory: cache?.directory)
  }
}
