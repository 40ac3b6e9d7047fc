import Foundation
import Strata
import StrataSandbox

/// The offline outbox against the sandbox: queued changes sent by one sync.
enum OutboxBenchmarks {
  private struct Draft: Codable, Sendable {
    let title: String
    let body: String
    let userId: Int
  }

  private struct Created: Codable, Sendable { let id: Int }

  /// 1,000 queued posts, one sync: each sent once with its key, its outcome saved before the
  /// next send (the store file written atomically every time).
  static func syncThousand() async throws -> BenchmarkResult {
    let server = SandboxServer()
    try server.start()
    defer { server.stopAndWait() }
    let directory = NSTemporaryDirectory() + "strata-bench-outbox-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = LocalStore<Created>(
      file: DocumentFile(path: directory + "/outbox.json", version: 1, maxSize: 64 << 20))
    let encoder = JSONEncoder()
    for index in 1...1_000 {
      try await store.enqueue(
        kind: "post.create",
        payload: try encoder.encode(Draft(title: "Post \(index)", body: "queued", userId: 1)))
    }
    let service = NetworkService(options: NetworkOptions(baseURL: server.baseURL))
    let started = ContinuousClock.now
    let outcomes = try await store.sync(send: { entry in
      let draft = try JSONDecoder().decode(Draft.self, from: entry.payload)
      return .init(
        key: entry.idempotencyKey,
        value: try await service.send(
          Request<Created>(
            path: "posts/add", method: .post, body: draft, idempotencyKey: entry.idempotencyKey)))
    })
    let elapsed = ContinuousClock.now - started
    let synced = outcomes.filter { $0.status == .synced }.count
    let created = server.changesDone(path: "/posts/add")
    return BenchmarkResult(
      name: "Outbox: sync 1,000 queued posts",
      compares:
        "\(synced) synced, \(created) created on the sandbox; a log line per outcome, one save",
      value: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
      unit: "s", target: "< 2 s")
  }
}
