import Foundation

/// `strata-bench --check` (`make bench-check`): a short subset of the benchmarks whose ratios
/// each have a limit — set with headroom for a busy, shared machine, so that it catches a
/// regression in kind (an O(n) lookup, a lock on the hot path, a copy per request), not noise.
/// Ratios only: both sides of each are measured in the same run.
enum BenchCheck {
  struct Check {
    let row: BenchmarkResult
    /// The limit, and whether the ratio must stay under it (else over it).
    let limit: Double
    let atMost: Bool
    var passed: Bool { atMost ? row.value <= limit : row.value >= limit }
    var limitText: String { (atMost ? "≤ " : "≥ ") + String(format: "%g", limit) + "×" }
  }

  static func run() async throws -> [Check] {
    let directory = NSTemporaryDirectory() + "strata-bench-check-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var checks: [Check] = []
    checks.append(Check(row: try await serviceOverhead(), limit: 1.5, atMost: true))
    let cache = try await CacheBenchmarks.againstTheSandbox()
    if let hit = cache.first {
      checks.append(Check(row: hit, limit: 10, atMost: false))
    }
    let graph = try ContentionBenchmarks.containerResults().first {
      $0.name.hasPrefix("DI 3-level graph /")
    }
    if let graph { checks.append(Check(row: graph, limit: 4, atMost: true)) }
    checks.append(
      Check(row: try await OutboxBenchmarks.enqueueRatio(directory), limit: 4, atMost: true))
    let reads = try await OutboxBenchmarks.reopenCosts(directory, sizes: [10, 100_000])
    if let read = reads.last {
      let ratio = read.value / (reads.first?.value ?? read.value)
      let row = BenchmarkResult(
        name: "CLI read at 100,000 synced / at 10", compares: read.compares, value: ratio,
        unit: "×", target: "≤ 2×")
      checks.append(Check(row: row, limit: 3, atMost: true))
    }
    return checks
  }

  /// NetworkService / raw URLSession at 32 in flight: the median of 8 interleaved rounds.
  private static func serviceOverhead() async throws -> BenchmarkResult {
    let server = try NetworkBenchmarks.sandbox()
    defer { server.stopAndWait() }
    guard let arms = try await NetworkBenchmarks.arms(server) else {
      throw CheckFailure("the sandbox gave no URL")
    }
    for _ in 0..<30 { for arm in arms.all { try await arm() } }
    let samples = try await NetworkBenchmarks.samples(
      arms, inFlight: 32, perBatch: 320, rounds: 8)
    return BenchmarkResult(
      name: "NetworkService / URLSession, 32 in flight",
      compares: "median of 8 paired ratios, interleaved in one run",
      value: Measure.median(zip(samples[2], samples[0]).map(/)), unit: "×", target: "≤ 1.02")
  }

  struct CheckFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  /// The checks as a Markdown table (the README's), one row each.
  static func markdown(_ checks: [Check]) -> String {
    (["| check | ratio | limit (target) |", "| --- | --- | --- |"]
      + checks.map {
        "| \($0.row.name) | \(String(format: "%.2f", $0.row.value)) × | \($0.limitText) (\($0.row.target)) |"
      }).joined(separator: "\n")
  }
}
