import Foundation

#if canImport(Network)
  import Network
#endif

/// Whether the device has a route to the network, as a stream (what an offline banner
/// shows). The first value is the current state; later values are changes.
public protocol ConnectivityMonitor: Sendable {
  /// A new stream of online (`true`) / offline (`false`) values.
  /// - Returns: The stream; cancelling its consumer stops monitoring.
  func updates() -> AsyncStream<Bool>

  /// The state right now, if the monitor can tell without waiting (nil: unknown until
  /// the stream's first value).
  func currentState() -> Bool?
}

extension ConnectivityMonitor {
  /// Unknown until the stream says.
  public func currentState() -> Bool? { nil }
}

/// Linux: online when the route tables have an up route off this machine, IPv4
/// (`/proc/net/route`) or IPv6 (`/proc/net/ipv6_route`) — a default route, or a directly
/// connected network (a host on the LAN is reachable without a default route, and one off it
/// fails at once in the kernel: `ENETUNREACH`). When neither table can be read (a container
/// without them) the state is unknown, which counts as online: a request is sent and the
/// transport decides, never refused on a guess. Polled.
package struct RouteTableConnectivityMonitor: ConnectivityMonitor {
  private let readTable: @Sendable () -> String?
  private let readIPv6Table: @Sendable () -> String?
  private let interval: Duration
  private let clock: any MonotonicClock

  /// - Parameter interval: How often to look (default 2 s).
  /// - Parameter clock: Sleeps between looks (tests inject a manual clock).
  /// - Parameter readTable: Reads the IPv4 route table (tests inject a fake one); nil when it
  ///   cannot be read.
  /// - Parameter readIPv6Table: Reads the IPv6 one, likewise.
  package init(
    interval: Duration = .seconds(2), clock: any MonotonicClock = SystemMonotonicClock(),
    readTable: @escaping @Sendable () -> String? = {
      try? String(contentsOfFile: "/proc/net/route", encoding: .utf8)
    },
    readIPv6Table: @escaping @Sendable () -> String? = { nil }
  ) {
    self.interval = interval
    self.clock = clock
    self.readTable = readTable
    self.readIPv6Table = readIPv6Table
  }

  /// Online (`true`), offline (`false`), or unknown (nil: neither table could be read).
  package static func state(ipv4: String?, ipv6: String?) -> Bool? {
    guard ipv4 != nil || ipv6 != nil else { return nil }
    return ipv4.map(hasRoute(ipv4:)) == true || ipv6.map(hasRoute(ipv6:)) == true
  }

  /// Whether `/proc/net/route`'s text has an up route (flag `RTF_UP`) on an interface other
  /// than the loopback.
  package static func hasRoute(ipv4 table: String) -> Bool {
    table.split(whereSeparator: \.isNewline).dropFirst().contains { line in
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard fields.count > 3, fields[0] != "lo", let flags = Int(fields[3], radix: 16) else {
        return false
      }
      return flags & 0x1 != 0
    }
  }

  /// Whether `/proc/net/ipv6_route`'s text has an up route (`RTF_UP`) that is not a reject
  /// route (`RTF_REJECT`: the "unreachable" default every host has) on an interface other
  /// than the loopback. Fields: destination, its prefix, source, its prefix, next hop,
  /// metric, references, use, flags, interface.
  package static func hasRoute(ipv6 table: String) -> Bool {
    table.split(whereSeparator: \.isNewline).contains { line in
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard fields.count >= 10, fields[9] != "lo", let flags = Int(fields[8], radix: 16) else {
        return false
      }
      return flags & 0x1 != 0 && flags & 0x200 == 0
    }
  }

  /// Reads the tables now.
  package func currentState() -> Bool? { Self.state(ipv4: readTable(), ipv6: readIPv6Table()) }

  /// Polls the tables, yielding the first state and every change (unknown as online).
  package func updates() -> AsyncStream<Bool> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Bool.self, bufferingPolicy: .bufferingNewest(8))
    let task = Task { [self] in
      var last: Bool?
      while !Task.isCancelled {
        let online = currentState() ?? true
        if online != last {
          // The first reading is where things start (debug); a change is news (info).
          Log.networking.log(
            last == nil ? .debug : .info, "connectivity: \(online ? "online" : "offline")")
          continuation.yield(online)
          last = online
        }
        do { try await clock.sleep(for: interval) } catch { break }
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }
}

#if canImport(Network)
  package struct PathConnectivityMonitor: ConnectivityMonitor {
    package init() {}

    /// Streams path status changes.
    package func updates() -> AsyncStream<Bool> {
      let (stream, continuation) = AsyncStream.makeStream(
        of: Bool.self, bufferingPolicy: .bufferingNewest(8))
      let monitor = NWPathMonitor()
      // `.requiresConnection` is a route that comes up when used (a VPN on demand, cellular
      // that is asleep): reachable, as a request will bring it up.
      monitor.pathUpdateHandler = { path in
        continuation.yield(path.status == .satisfied || path.status == .requiresConnection)
      }
      continuation.onTermination = { _ in monitor.cancel() }
      monitor.start(queue: DispatchQueue(label: "strata.connectivity"))
      return stream
    }
  }
#endif
