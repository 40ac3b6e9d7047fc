import Foundation

extension Duration {
  /// The duration in seconds, for Foundation APIs that take a `TimeInterval`.
  package var inSeconds: TimeInterval {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }

  /// `1.5s` from one second up, `250ms` below: how logs and the CLI show waits.
  package var shortDescription: String {
    let seconds = inSeconds
    return seconds >= 1
      ? String(format: "%.1fs", seconds) : String(format: "%.0fms", seconds * 1000)
  }
}
