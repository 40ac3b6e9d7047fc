import Strata

/// Where the domain reports what happened (`post_created`, `signed_in`, …). A no-op unless
/// the app installs one; the CLI's `--analytics-log FILE` writes each event as a JSON line.
///
/// Properties are ids, counts, flags and fixed labels only: ``AnalyticsValue`` has no case for
/// free text, so nothing a person typed and no personal data can become a property.
public protocol Analytics: Sendable {
  func track(_ event: String, _ properties: [String: AnalyticsValue])
}

/// A property value: a number, a flag or a label from a fixed vocabulary (an HTTP status
/// class, a sign-out reason) — never text from a person or a server.
public enum AnalyticsValue: Sendable, Equatable, Encodable {
  case count(Int)
  case flag(Bool)
  case label(AnalyticsLabel)

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .count(let value): try container.encode(value)
    case .flag(let value): try container.encode(value)
    case .label(let value): try container.encode(value.rawValue)
    }
  }
}

extension AnalyticsValue {
  /// A failure as properties: the HTTP status, or whether there was no route.
  static func failure(_ error: any Error) -> [String: AnalyticsValue] {
    if let status = (error as? NetworkError)?.status { return ["status": .count(status)] }
    let offline = (error as? NetworkError)?.kind == .offline
    return ["reason": .label(offline ? .offline : .failed)]
  }
}

/// The labels an event may carry.
public enum AnalyticsLabel: String, Sendable, Equatable {
  case user, sessionEnded, refused, failed, offline, online
}

/// Tracks nothing (the default).
public struct NoAnalytics: Analytics {
  public init() {}
  public func track(_ event: String, _ properties: [String: AnalyticsValue]) {}
}
