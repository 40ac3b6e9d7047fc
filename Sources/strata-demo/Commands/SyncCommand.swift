import DemoKit
import Foundation
import Strata

/// `sync`: sends what was kept on this device (posts, then todo changes), each change once.
@MainActor
enum SyncCommand {
  nonisolated static let commands = [
    Command(
      "sync",
      summary: "Send the posts and todo changes kept on this device, in order, each once.",
      example: "strata-demo sync", run: .inApp(sync))
  ]

  /// Sends the posts, then the todo changes, kept on this device.
  static func sync(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let posts = try await app.resolve(OfflinePosts.self).sync()
    let todos = try await app.resolve(OfflineTodos.self).sync()
    func row<Item: Codable & Sendable & Equatable>(
      _ outcome: LocalStore<Item>.Outcome, _ result: (Item) -> String
    ) -> [String] {
      let item = outcome.entry.result.flatMap {
        (try? JSONDecoder().decode(LocalStore<Item>.Settled.self, from: $0))?.value
      }
      return [
        String(outcome.entry.idempotencyKey.prefix(8)), outcome.entry.kind,
        outcome.status.rawValue, String(outcome.entry.attempts),
        item.map(result) ?? outcome.entry.message ?? "",
      ]
    }
    let rows =
      posts.map { row($0) { "post #\($0.id)" } }
      + todos.map { row($0) { "todo #\($0.id) \($0.completed ? "done" : "not done")" } }
    let outcomes = posts.map(\.entry) + todos.map(\.entry)
    let waiting = outcomes.contains { $0.status == .pending }
    return Output(
      text: .table(
        headers: ["CHANGE", "KIND", "STATUS", "ATTEMPTS", "RESULT"], rows: rows,
        footer: outcomes.isEmpty
          ? "nothing to send" : waiting ? "the server could not be reached: the rest wait" : nil),
      json: outcomes.map {
        ["key": $0.idempotencyKey, "kind": $0.kind, "status": $0.status.rawValue]
      })
  }
}
