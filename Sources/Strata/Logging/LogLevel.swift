/// Severity of a log record, lowest first.
public enum LogLevel: Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
  /// Very fine-grained detail (every header, every byte count).
  case trace
  /// Information useful while debugging.
  case debug
  /// Normal operation worth recording (a retry, a refresh).
  case info
  /// Normal but significant (signed in, signed out).
  case notice
  /// Something unexpected that was handled.
  case warning
  case error
  /// The application cannot go on.
  case critical

  /// Its place in the order of severity, lowest first (what the per-category thresholds
  /// compare; the order itself is the cases' order, as `Comparable` says).
  var rank: Int {
    switch self {
    case .trace: 0
    case .debug: 1
    case .info: 2
    case .notice: 3
    case .warning: 4
    case .error: 5
    case .critical: 6
    }
  }

  /// The lowercase name: `trace`, `debug`, … `critical`.
  public var description: String {
    switch self {
    case .trace: "trace"
    case .debug: "debug"
    case .info: "info"
    case .notice: "notice"
    case .warning: "warning"
    case .error: "error"
    case .critical: "critical"
    }
  }

  /// Parses a level name in any letter case (`warn` is accepted for `warning`).
  public init?(name: String) {
    let lower = name.lowercased()
    if lower == "warn" {
      self = .warning
      return
    }
    guard let level = Self.allCases.first(where: { $0.description == lower }) else { return nil }
    self = level
  }
}
