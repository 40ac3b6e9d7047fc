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

  /// The peak resident size of this process image, in kilobytes. On Linux `VmHWM`: unlike
  /// `getrusage`'s `ru_maxrss`, which keeps the largest size from before an `exec` — the
  /// size of the parent a spawned process was forked from.
  static func peakResidentKilobytes() -> Int {
    #if os(Linux)
      return statusField("VmHWM:")
    #else
      var usage = rusage()
      _ = getrusage(RUSAGE_SELF, &usage)
      return usage.ru_maxrss / 1024  // bytes on Darwin
    #endif
  }

  /// Sets the peak resident size to the current one (Linux: `/proc/self/clear_refs`), so a
  /// peak read after some work is that work's; returns the current size, in kilobytes.
  static func resetPeakResident() -> Int {
    #if os(Linux)
      try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
      return statusField("VmRSS:")
    #else
      return peakResidentKilobytes()
    #endif
  }

  #if os(Linux)
    private static func statusField(_ name: String) -> Int {
      let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
      let line = status.split(separator: "\n").first { $0.hasPrefix(name) } ?? ""
      return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
  #endif

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[sorted.count / 2]
  }
}

/// Keeps the optimiser from deleting work whose result is unused.
@inline(never)
func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }
