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

/// Linux: online when `/proc/net/route` has a default route that is up; polled.
package struct RouteTableConnectivityMonitor: ConnectivityMonitor {
  private let readTable: @Sendable () -> String?
  private let interval: Duration
  private let clock: any NetworkClock

  /// - Parameter interval: How often to look (default 2 s).
  /// - Parameter clock: Sleeps between looks (tests inject a manual clock).
  /// - Parameter readTable: Reads the route table (tests inject a fake one).
  package init(
    interval: Duration = .seconds(2), clock: any NetworkClock = SystemNetworkClock(),
    readTable: @escaping @Sendable () -> String? = {
      try? String(contentsOfFile: "/proc/net/route", encoding: .utf8)
    }
  ) {
    self.interval = interval
    self.clock = clock
    self.readTable = readTable
  }

  /// Whether a route table has an up default route (destination 0.0.0.0, flag RTF_UP).
  /// - Parameter table: The text of `/proc/net/route`.
  package static func hasDefaultRoute(_ table: String) -> Bool {
    table.split(whereSeparator: \.isNewline).dropFirst().contains { line in
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard fields.count > 3, fields[1] == "00000000", let flags = Int(fields[3], radix: 16) else {
        return false
      }
      return flags & 0x1 != 0
    }
  }

  /// Reads the route table now.
  package func currentState() -> Bool? { readTable().map(Self.hasDefaultRoute) ?? false }

  /// Polls the route table, yielding the first state and every change.
  package func updates() -> AsyncStream<Bool> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Bool.self, bufferingPolicy: .bufferingNewest(8))
    let task = Task { [readTable, interval, clock] in
      var last: Bool?
      while !Task.isCancelled {
        let online = readTable().map(Self.hasDefaultRoute) ?? false
        if online != last {
          Log.networking.info("connectivity: \(online ? "online" : "offline")")
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
      monitor.pathUpdateHandler = { path in continuation.yield(path.status == .satisfied) }
      continuation.onTermination = { _ in monitor.cancel() }
      monitor.start(queue: DispatchQueue(label: "strata.connectivity"))
      return stream
    }
  }
#endif
