import DemoKit
import Foundation
import Strata
import StrataSandbox

/// Changes that depend on each other, through DemoKit's offline posts: an edit folded into a
/// creation not yet sent, against the creation itself; and a sync of 1,000 mixed changes
/// (creations, edits and deletions of posts made offline and synced before) to the sandbox
/// keeping writes, per change against a sync of creations alone.
enum DependentChangeBenchmarks {
  private static func posts(_ directory: String, _ server: SandboxServer) -> OfflinePosts {
    // Every synced post kept (the default forgets all but the newest 250), so each one made
    // offline is still found by its local id.
    var options = LocalStore<Post>.Options()
    options.keptSyncedRecords = 10_000
    let store = LocalStore<Post>(path: directory + "/posts", options: options)
    let network = NetworkService(options: NetworkOptions(baseURL: server.baseURL))
    return OfflinePosts(
      stores: { _ in store }, owner: { .device },
      repository: APIPostsRepository(network: network))
  }

  private static func draft(_ index: Int) -> PostDraft {
    PostDraft(title: "Post \(index)", body: "written offline", userId: 1)
  }

  private static func seconds(_ duration: Duration) -> Double {
    Measure.nanoseconds(duration) / 1e9
  }

  static func run() async throws -> [BenchmarkResult] {
    let directory = NSTemporaryDirectory() + "strata-bench-depend-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var configuration = SandboxServer.Configuration()
    configuration.keepsWrites = true
    let server = SandboxServer(configuration: configuration)
    try server.start()
    defer { server.stopAndWait() }
    let posts = posts(directory, server)
    let (fold, locals) = try await folding(posts)
    return [fold, try await mixedSync(posts, locals)]
  }

  /// 1,000 creations kept offline, then an edit of each folded into it.
  private static func folding(_ posts: OfflinePosts) async throws
    -> (BenchmarkResult, [ItemID])
  {
    var locals: [ItemID] = []
    let createStart = ContinuousClock.now
    for index in 0..<1_000 {
      let made = try await posts.create(draft(index), offline: true)
      locals.append(.local(made.localId ?? ""))
    }
    let createTime = seconds(ContinuousClock.now - createStart)
    let foldStart = ContinuousClock.now
    for local in locals {
      _ = try await posts.edit(local, PostEdit(title: "Edited"), offline: true)
    }
    let foldTime = seconds(ContinuousClock.now - foldStart)
    let queued = try await posts.outbox().count
    return (
      BenchmarkResult(
        name: "Store: fold 1,000 edits into pending creates",
        compares: String(
          format: "an edit folded / a creation kept: %.2f× (%.0f µs / %.0f µs); %d changes left",
          foldTime / createTime, foldTime / 1_000 * 1e6, createTime / 1_000 * 1e6, queued),
        value: foldTime / createTime, unit: "×", target: "≤ 2×, 1,000 left"),
      locals
    )
  }

  /// The 1,000 creations synced (creations alone), then 1,000 mixed changes queued and synced:
  /// edits and deletions of those posts by their local ids, and new creations.
  private static func mixedSync(_ posts: OfflinePosts, _ locals: [ItemID]) async throws
    -> BenchmarkResult
  {
    let createsStart = ContinuousClock.now
    _ = try await posts.sync()
    let perCreate = seconds(ContinuousClock.now - createsStart) / Double(locals.count)
    for (index, local) in locals.enumerated() where index < 500 {
      if index < 350 {
        _ = try await posts.edit(local, PostEdit(body: "changed"), offline: true)
      } else {
        _ = try await posts.delete(local, offline: true)
      }
    }
    for index in 0..<500 { _ = try await posts.create(draft(1_000 + index), offline: true) }
    let mixed = try await posts.outbox().filter { $0.status == .pending }.count
    let mixedStart = ContinuousClock.now
    let outcomes = try await posts.sync()
    let mixedTime = seconds(ContinuousClock.now - mixedStart)
    let synced = outcomes.filter { $0.entry.status == .synced }.count
    let ratio = mixedTime / Double(max(1, mixed)) / perCreate
    return BenchmarkResult(
      name: "Store: sync 1,000 mixed changes",
      compares: String(
        format:
          "%d queued (350 edits, 150 deletions, 500 creations), %d synced in %.2f s; per change / a sync of creations alone: %.2f×",
        mixed, synced, mixedTime, ratio),
      value: ratio, unit: "×", target: "≤ 2×")
  }
}
