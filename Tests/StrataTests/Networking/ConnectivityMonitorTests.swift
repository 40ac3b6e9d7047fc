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
  static let offline = header + "\neth0\t0002A8C0\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n"
  static let defaultRouteDown =
    header + "\neth0\t00000000\t0102A8C0\t0002\t0\t0\t100\t00000000\t0\t0\t0\n"

  @Test func parsesTheRouteTable() {
    #expect(RouteTableConnectivityMonitor.hasDefaultRoute(Self.online))
    #expect(!RouteTableConnectivityMonitor.hasDefaultRoute(Self.offline))
    #expect(!RouteTableConnectivityMonitor.hasDefaultRoute(Self.defaultRouteDown))
    #expect(!RouteTableConnectivityMonitor.hasDefaultRoute(""))
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
