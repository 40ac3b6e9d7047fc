import Foundation

/// One benchmark result row: what was measured, against what, and the figure.
struct BenchmarkResult: Codable {
  let name: String
  let compares: String
  let value: Double
  let unit: String
  let target: String

  /// A row with no target of its own: a figure another row's ratio is read against.
  static func figure(_ name: String, _ compares: String, _ value: Double, unit: String = "ns/op")
    -> BenchmarkResult
  {
    BenchmarkResult(name: name, compares: compares, value: value, unit: unit, target: "-")
  }
}

/// Timing helpers. Every figure is the median of several rounds, so one noisy round (these
/// machines are shared) does not decide the result.
enum Measure {
  static let rounds = 7

  /// Median nanoseconds per operation of `body`, called `iterations` times per round.
  static func nanosecondsPerOperation(iterations: Int, _ body: () throws -> Void) rethrows -> Double
  {
    var samples: [Double] = []
    for _ in 0..<rounds {
      let start = ContinuousClock.now
      for _ in 0..<iterations { try body() }
      samples.append(nanoseconds(ContinuousClock.now - start) / Double(iterations))
    }
    return median(samples)
  }

  /// Median milliseconds of one call of `body`.
  static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    var samples: [Double] = []
    for _ in 0..<rounds {
      let start = ContinuousClock.now
      try body()
      samples.append(nanoseconds(ContinuousClock.now - start) / 1_000_000)
    }
    return median(samples)
  }

  static func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[sorted.count / 2]
  }
}

/// Keeps the optimiser from deleting work whose result is unused.
@inline(never)
func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }
