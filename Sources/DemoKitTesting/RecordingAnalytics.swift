import DemoKit

/// Keeps every event tracked, in order, for tests and previews.
public final class RecordingAnalytics: Analytics {
  public struct Event: Sendable, Equatable {
    public let name: String
    public let properties: [String: AnalyticsValue]
  }

  private let recorded = Locked<[Event]>([])

  public init() {}

  public func track(_ event: String, _ properties: [String: AnalyticsValue]) {
    recorded.withLock { $0.append(Event(name: event, properties: properties)) }
  }

  public var events: [Event] { recorded.withLock { $0 } }
  public var names: [String] { events.map(\.name) }
}
