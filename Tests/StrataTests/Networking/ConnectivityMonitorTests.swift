import Strata
import StrataConcurrency
import StrataTesting
import Testing

@Suite("ConnectivityMonitor")
struct ConnectivityMonitorTests {
  static let header =
    "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT"
  static let online =
    header
    + "\neth0\t00000000\t0102A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\neth0\t0002A8C0\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n"
  /// A directly connected network and no default route: its hosts are reachable.
  static let lanOnly = header + "\neth0\t0002A8C0\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n"
  static let offline = header + "\nlo\t0000007F\t00000000\t0001\t0\t0\t0\t000000FF\t0\t0\t0\n"
  static let defaultRouteDown =
    header + "\neth0\t00000000\t0102A8C0\t0002\t0\t0\t100\t00000000\t0\t0\t0\n"
  /// An IPv6-only host: a default route via a router, and the kernel's reject routes on lo.
  static let ipv6Online = """
    00000000000000000000000000000000 00 00000000000000000000000000000000 00 fe800000000000000000000000000001 00000400 00000002 00000000 00000003     eth0
    00000000000000000000000000000001 80 00000000000000000000000000000000 00 00000000000000000000000000000000 00000000 00000002 00000000 80200001       lo
    00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo
    """
  /// No network at all: only the loopback and the unreachable default.
  static let ipv6Offline = """
    00000000000000000000000000000001 80 00000000000000000000000000000000 00 00000000000000000000000000000000 00000000 00000002 00000000 80200001       lo
    00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo
    """

  @Test func parsesTheRouteTables() {
    typealias Monitor = RouteTableConnectivityMonitor
    #expect(Monitor.hasRoute(ipv4: Self.online) && Monitor.hasRoute(ipv4: Self.lanOnly))
    #expect(!Monitor.hasRoute(ipv4: Self.offline))
    #expect(!Monitor.hasRoute(ipv4: Self.defaultRouteDown))
    #expect(!Monitor.hasRoute(ipv4: "") && !Monitor.hasRoute(ipv6: ""))
    #expect(Monitor.hasRoute(ipv6: Self.ipv6Online) && !Monitor.hasRoute(ipv6: Self.ipv6Offline))
  }

  /// IPv6 alone is online; no route anywhere is offline; tables that cannot be read are
  /// unknown — and the stream says online, so requests go and the transport decides.
  @Test(
    arguments: [
      (Self.offline, Self.ipv6Online, true), (Self.offline, Self.ipv6Offline, false),
      (Self.lanOnly, nil, true), (nil, Self.ipv6Online, true), (Self.offline, nil, false),
      (Self.header, Self.ipv6Offline, false),
    ] as [(String?, String?, Bool)])
  func combinesBothTables(ipv4: String?, ipv6: String?, online: Bool) async {
    #expect(RouteTableConnectivityMonitor.state(ipv4: ipv4, ipv6: ipv6) == online)
  }

  @Test func unreadableTablesAreUnknownAndCountAsOnline() async {
    let monitor = RouteTableConnectivityMonitor(
      clock: ManualClock(suspendsSleeps: true), readTable: { nil }, readIPv6Table: { nil })
    #expect(monitor.currentState() == nil)
    var updates = monitor.updates().makeAsyncIterator()
    #expect(await updates.next() == true)
    #expect(Connectivity(monitor: monitor).isOnline)
  }

  @Test func reportsTheFirstStateAndEveryChange() async {
    let table = Lock(Self.offline)
    let clock = ManualClock(suspendsSleeps: true)
    let monitor = RouteTableConnectivityMonitor(clock: clock) { table.withLock { $0 } }
    var updates = monitor.updates().makeAsyncIterator()
    #expect(await updates.next() == false)

    func poll() async {
      while clock.suspendedCount == 0 { await Task.yield() }
      clock.resumeSleepers()
    }
    table.withLock { $0 = Self.online }
    await poll()
    #expect(await updates.next() == true)
    await poll()  // unchanged: nothing emitted
    table.withLock { $0 = Self.offline }
    await poll()
    #expect(await updates.next() == false)
    #expect(clock.sleeps.count >= 3)
  }
}
