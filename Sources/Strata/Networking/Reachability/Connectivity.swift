import Foundation
import StrataConcurrency

/// The latest word of a ``ConnectivityMonitor``, readable at once from any thread: what
/// ``NetworkService`` checks before every attempt (set ``NetworkOptions/connectivity``), and
/// what a view model shows as "offline".
///
/// Until the monitor's first value arrives the state is its ``ConnectivityMonitor/currentState()``,
/// or online when it cannot tell: a request is never held back on a guess.
public final class Connectivity: Sendable {
  private let online: AtomicInt
  private let following = Lock<Task<Void, Never>?>(nil)
  private let broadcaster = EventBroadcaster<Bool>()

  /// Follows `monitor` until `stop()` (or until this object goes away).
  public init(monitor: any ConnectivityMonitor) {
    online = AtomicInt((monitor.currentState() ?? true) ? 1 : 0)
    let updates = monitor.updates()
    let task = Task { [online, broadcaster] in
      for await value in updates {
        online.storeReleasing(value ? 1 : 0)
        broadcaster.yield(value)
      }
    }
    following.withLock { $0 = task }
  }

  /// The platform's own monitor: `NWPathMonitor` on Apple platforms; elsewhere the routes in
  /// `routeTable` (Linux's `/proc/net/route`) and in `ipv6_route` beside it, looked at every
  /// 2 s: online with a route off this machine (a default one, or a directly connected
  /// network), and — when neither table can be read — unknown, so requests go.
  public static func system(routeTable: String = "/proc/net/route") -> Connectivity {
    #if canImport(Network)
      return Connectivity(monitor: PathConnectivityMonitor())
    #else
      let ipv6Table = (routeTable as NSString).deletingLastPathComponent + "/ipv6_route"
      return Connectivity(
        monitor: RouteTableConnectivityMonitor(
          readTable: { try? String(contentsOfFile: routeTable, encoding: .utf8) },
          readIPv6Table: { try? String(contentsOfFile: ipv6Table, encoding: .utf8) }))
    #endif
  }

  /// A fixed state that only ``set(online:)`` changes (tests; an app with its own source).
  package init(isOnline: Bool) {
    online = AtomicInt(isOnline ? 1 : 0)
  }

  deinit { following.withLock { $0?.cancel() } }

  /// Whether the device has a network route, as last reported.
  public var isOnline: Bool { online.loadAcquiring() != 0 }

  /// Overrides the state (until the monitor's next change).
  package func set(online value: Bool) {
    online.storeReleasing(value ? 1 : 0)
    broadcaster.yield(value)
  }

  /// Every change from now on (online `true`, offline `false`), for a screen's banner.
  public func updates() -> AsyncStream<Bool> { broadcaster.stream() }

  /// Stops following the monitor; the last state stays.
  package func stop() { following.withLock { $0?.cancel() } }
}
