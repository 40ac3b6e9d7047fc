import Foundation
import Strata

/// The API's live feed: the sandbox's `GET /events` (Strata's addition, not DummyJSON's).
public protocol EventsRepository: Sendable {
  /// The feed's events as they happen: from after `lastEventID` when given (what was missed
  /// since is replayed; `"0"`: everything the feed keeps), else only what happens from now;
  /// reconnects when the connection drops, until the reader stops.
  func follow(after lastEventID: String?) -> ResponseStream<ServerSentEvent>
}

// MARK: - Live implementation

public final class APIEventsRepository: EventsRepository {
  private let network: any Networking

  public init(network: any Networking) { self.network = network }

  public func follow(after lastEventID: String?) -> ResponseStream<ServerSentEvent> {
    network.stream(Request<Data>(path: "events"), as: .events(lastEventID: lastEventID))
  }
}
