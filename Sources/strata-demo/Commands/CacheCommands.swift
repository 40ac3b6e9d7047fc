import Strata

/// `cache show`, `cache clear`: the HTTP cache of the API in use (its answers to GETs, kept
/// to answer offline and to revalidate with a 304 instead of downloading again).
@MainActor
enum CacheCommands {
  nonisolated static let commands = [
    Command(
      "cache show", summary: "Show what the HTTP cache keeps for this API.",
      example: "strata-demo cache show", run: .inApp(show)),
    Command(
      "cache clear", summary: "Forget every answer the HTTP cache keeps for this API.",
      example: "strata-demo cache clear", run: .inApp(clear)),
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
      return Output(text: .line("the HTTP cache is off (HTTP_CACHE=off)"), json: summary)
    }
    return Output(
      text: .detail([
        ("API", summary.api), ("Kept", summary.kept), ("Entries", String(summary.entries)),
        ("Bytes", String(summary.bytes)), ("Directory", summary.directory),
      ]), json: summary)
  }

  static func clear(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let before = try summary(app)
    let left = try app.resolve(NetworkOptions.self).cache?.removeAll() ?? []
    guard left.isEmpty else {
      throw CommandFailure(
        "could not clear \(left.count) of the HTTP cache's files for \(before.api): "
          + left.prefix(3).joined(separator: "; ") + (left.count > 3 ? "; …" : ""))
    }
    return Output(
      text: .line(
        "cleared \(before.entries) answers (\(before.bytes) bytes) kept for \(before.api)"),
      json: before)
  }

  private static func summary(_ app: AppContext) throws -> Summary {
    let cache = try app.resolve(NetworkOptions.self).cache
    return Summary(
      api: app.apiName, kept: cache == nil ? "off" : cache?.directory == nil ? "memory" : "disk",
      entries: cache?.count ?? 0, bytes: cache?.byteCount ?? 0, directory: cache?.directory)
  }
}
