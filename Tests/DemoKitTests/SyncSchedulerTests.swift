import DemoKit
import DemoKitTesting
import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

/// The sync that runs itself, on a manual clock whose sleeps wait until the test resumes them:
/// every pass and every wait is counted, none is timed.
@Suite("SyncScheduler: route back, interval, backoff, stop")
struct SyncSchedulerTests {
  /// A pass that reports `waiting` from a script (the last entry repeats), counting calls.
  final class Outbox: Sendable {
    private let state: Lock<(calls: Int, script: [Int])>
    let gate: Gate?
    init(waiting script: [Int], gate: Gate? = nil) {
      state = Lock((0, script))
      self.gate = gate
    }
    var calls: Int { state.withLock { $0.calls } }
    func pass() async -> SyncScheduler.Pass {
      if let gate { await gate.pass() }
      let waiting = state.withLock { state -> Int in
        defer { state.calls += 1 }
        return state.script[min(state.calls, state.script.count - 1)]
      }
      return SyncScheduler.Pass(sent: waiting == 0 ? 1 : 0, waiting: waiting)
    }
  }

  @Test func theRouteComingBackRunsExactlyOnePass() async {
    let clock = ManualClock(suspendsSleeps: true)
    let outbox = Outbox(waiting: [0])
    let scheduler = SyncScheduler(interval: .seconds(1), clock: clock) { await outbox.pass() }
    let (triggers, trigger) = AsyncStream.makeStream(of: SyncScheduler.Trigger.self)
    let route = Connectivity(isOnline: false)
    let running = Task { await scheduler.run(following: route, triggers: triggers) }
    await eventually("the first pass") { outbox.calls == 1 }
    route.set(online: false)  // no change of route: no pass
    route.set(online: true)
    await eventually("the pass for the route") { outbox.calls == 2 }
    trigger.yield(.signedIn)
    await eventually("the pass after a sign-in") { outbox.calls == 3 }
    await scheduler.stop()
    await running.value
    #expect(outbox.calls == 3, "one pass per trigger")
    #expect(clock.sleeps.isEmpty, "nothing waits: no timer")
  }

  @Test func changesThatWaitAreRetriedEveryIntervalBackingOff() async {
    let clock = ManualClock(suspendsSleeps: true)
    let outbox = Outbox(waiting: [2, 2, 2, 0])
    let scheduler = SyncScheduler(interval: .seconds(1), clock: clock) { await outbox.pass() }
    let running = Task { await scheduler.run(triggers: AsyncStream { _ in }) }
    for passes in 1...3 {
      await eventually("pass \(passes), then a wait") {
        outbox.calls == passes && clock.suspendedCount == 1
      }
      clock.resumeSleepers()
    }
    await eventually("the pass that empties the outbox") { outbox.calls == 4 }
    await scheduler.stop()
    await running.value
    #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(4)])
    #expect(outbox.calls == 4)
  }

  /// A pass that empties the outbox ends the backoff: the next wait is one interval again.
  @Test func aSuccessResetsTheBackoff() async {
    let clock = ManualClock(suspendsSleeps: true)
    let outbox = Outbox(waiting: [2, 2, 0, 2])
    let scheduler = SyncScheduler(interval: .seconds(1), clock: clock) { await outbox.pass() }
    let (triggers, trigger) = AsyncStream.makeStream(of: SyncScheduler.Trigger.self)
    let running = Task { await scheduler.run(triggers: triggers) }
    for passes in 1...2 {
      await eventually("pass \(passes), then a wait") {
        outbox.calls == passes && clock.suspendedCount == 1
      }
      clock.resumeSleepers()
    }
    await eventually("the pass that empties the outbox") { outbox.calls == 3 }
    trigger.yield(.signedIn)
    await eventually("a pass that leaves changes, then a wait") {
      outbox.calls == 4 && clock.suspendedCount == 1
    }
    await scheduler.stop()
    await running.value
    #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(1)], "not 4 s: reset")
  }

  @Test func aServerThatStaysAwayIsNotBusyLooped() async {
    let clock = ManualClock(suspendsSleeps: true)
    let outbox = Outbox(waiting: [1])
    let scheduler = SyncScheduler(
      interval: .seconds(1), maxDelay: .seconds(8), clock: clock
    ) { await outbox.pass() }
    let running = Task { await scheduler.run(triggers: AsyncStream { _ in }) }
    for passes in 1...6 {
      await eventually("pass \(passes) then a wait") {
        outbox.calls == passes && clock.suspendedCount == 1
      }
      #expect(outbox.calls == passes, "no pass without a wait")
      clock.resumeSleepers()
    }
    await eventually("the last pass and its wait") {
      outbox.calls == 7 && clock.suspendedCount == 1
    }
    await scheduler.stop()
    await running.value
    #expect(clock.sleeps == [1, 2, 4, 8, 8, 8, 8].map { Duration.seconds($0) })
  }

  @Test func stopLetsThePassUnderWayFinish() async throws {
    let gate = Gate()
    let outbox = Outbox(waiting: [0], gate: gate)
    let scheduler = SyncScheduler(interval: .seconds(1), clock: ManualClock(suspendsSleeps: true)) {
      await outbox.pass()
    }
    let running = Task { await scheduler.run(triggers: AsyncStream { _ in }) }
    try await gate.waitUntilEntered()
    await scheduler.stop()
    #expect(outbox.calls == 0, "still in flight")
    gate.open()
    await running.value
    #expect(outbox.calls == 1, "finished, then stopped")
  }

  /// SIGTERM on `sync --watch`: stopping in the middle of a pass lets the change in flight
  /// finish (it is recorded as sent) and sends none of the ones behind it.
  @Test func stopEndsThePassAfterTheChangeInFlight() async throws {
    let directory = NSTemporaryDirectory() + "strata-stop-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let script = FakeScript()
    let gate = script.hold("create")
    let posts = OfflinePosts(
      stores: { _ in LocalStore(path: directory + "/posts") }, owner: { .device },
      repository: FakePostsRepository(script: script)
    )
    let todos = OfflineTodos(
      stores: { _ in LocalStore(path: directory + "/todos") }, owner: { .device },
      repository: FakeTodosRepository())
    for title in ["in flight", "behind", "further behind"] {
      _ = try await posts.create(PostDraft(title: title, body: "b", userId: 1), offline: true)
    }
    _ = try await todos.add(TodoDraft(todo: "after the posts", userId: 1), offline: true)
    let scheduler = SyncScheduler(
      interval: .seconds(1), clock: ManualClock(suspendsSleeps: true),
      send: SyncScheduler.outbox([posts, todos]))
    let passes = Lock<[SyncScheduler.Pass]>([])
    let running = Task {
      await scheduler.run(triggers: AsyncStream { _ in }) { pass in
        passes.withLock { $0.append(pass) }
      }
    }
    try await gate.waitUntilEntered()
    await scheduler.stop()
    gate.open()
    await running.value
    #expect(script.calls.filter { $0.hasPrefix("create") }.count == 1)
    #expect(try await posts.outbox().map(\.status) == [.synced, .pending, .pending])
    // The todos, after the posts in the pass, wait for the next one.
    #expect(try await todos.outbox().map(\.status) == [.pending])
    // The stopped pass says what it sent (what `sync --watch` prints), not 0.
    #expect(passes.withLock { $0 } == [SyncScheduler.Pass(sent: 1, waiting: 3)])
  }
}
