import DemoKit
import Foundation
import Strata

/// Queries over what a device keeps: 100,000 values of a post's shape, a filtered and sorted
/// first page of 20, a count, and how soon a live query answers a write in this process.
enum QueryBenchmarks {
  /// A collection without a server: the live query reads the device only.
  private struct NoServer: RemoteCollection {
    struct Unreachable: Error {}
    func items(limit: Int, skip: Int) async throws -> [Post] { throw Unreachable() }
    func latest(id: Int) async throws -> (item: Post, version: String?) { throw Unreachable() }
    func create(_ draft: Post.Draft, idempotencyKey: String) async throws -> Post {
      throw Unreachable()
    }
    func update(id: Int, _ edit: Post.Edit, idempotencyKey: String, ifMatch version: String?)
      async throws -> (item: Post, version: String?)
    { throw Unreachable() }
    func delete(id: Int, idempotencyKey: String, ifMatch version: String?) async throws {
      throw Unreachable()
    }
  }

  static func run() async throws -> [BenchmarkResult] {
    let directory = NSTemporaryDirectory() + "strata-bench-query-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var options = LocalStore<Post>.Options()
    options.keptSyncedRecords = 200_000  // filled page by page: no complete listing keeps them
    let byUser = ValueIndex<Post>("userId") { $0.userId }
    options.indexes = [byUser]
    let store = LocalStore<Post>(path: directory + "/posts", options: options)
    for batch in stride(from: 0, to: 100_000, by: 1_000) {
      let page = (batch..<(batch + 1_000)).map { index in
        (
          "post-\(index + 1)",
          Post(
            id: index + 1, title: "Post \(index)", body: "written for the benchmark",
            userId: index % 200 + 1, views: (index * 7_919) % 100_000)
        )
      }
      try await store.merge(page, complete: false)
    }
    let page = ValueQuery<Post>(
      where: { $0.userId == 5 }, sortedBy: [.descending { $0.views ?? 0 }], limit: 20)
    let firstPage = try await median(21) { _ in _ = try await store.records(page) }
    let count = try await median(21) { _ in _ = try await store.count(page) }
    let indexed = ValueQuery<Post>(
      byUser.equals(5), sortedBy: [.descending { $0.views ?? 0 }], limit: 20)
    let indexedPage = try await median(201) { _ in _ = try await store.records(indexed) }
    let indexedCount = try await median(201) { _ in _ = try await store.count(indexed) }
    let whole = try await median(5) { _ in _ = try await store.records(ValueQuery()) }

    let collection = SyncedCollection(
      api: NoServer(), stores: { _ in store }, owner: { .device })
    var results = await collection.updates(page, checkingEvery: .seconds(3_600))
      .makeAsyncIterator()
    // Each round edits the first post shown, so the result changes and the query yields.
    let first = await results.next()?.first?.item.id ?? 0
    var yields: [Double] = []
    for round in 0..<21 {
      _ = try await collection.edit(.server(first), offline: true) { _ in
        Post.Edit(title: "edited \(round)")
      }
      let written = ContinuousClock.now
      guard await results.next() != nil else { break }
      yields.append(Measure.nanoseconds(ContinuousClock.now - written) / 1e6)
    }
    return [
      BenchmarkResult(
        name: "Query: first 20 of 100,000 by a filter, sorted",
        compares: "userId == 5, views descending, no index; median of 21",
        value: firstPage, unit: "ms", target: "≤ 5 ms"),
      BenchmarkResult(
        name: "Query: count of 100,000 by a filter",
        compares:
          "userId == 5, no index; median of 21; every value, newest first: \(String(format: "%.0f", whole)) ms",
        value: count, unit: "ms", target: "≤ 2 ms"),
      BenchmarkResult(
        name: "Query: the same first 20, by an index",
        compares: String(
          format:
            "userId looked up (500 of 100,000 read), views descending; median of 201; "
            + "a count: %.3f ms", indexedCount),
        value: indexedPage, unit: "ms", target: "≤ 0.2 ms"),
      BenchmarkResult(
        name: "Query: live yield after a write here",
        compares:
          "from the edit's return to the new first page (the last one brought up to date by the value edited); median of 21",
        value: Measure.median(yields), unit: "ms", target: "≤ 1 ms"),
    ]
  }

  /// The median milliseconds of `runs` calls of `body`.
  private static func median(_ runs: Int, _ body: (Int) async throws -> Void) async throws
    -> Double
  {
    var times: [Double] = []
    for run in 0..<runs {
      let started = ContinuousClock.now
      try await body(run)
      times.append(Measure.nanoseconds(ContinuousClock.now - started) / 1e6)
    }
    return Measure.median(times)
  }
}
