import Foundation

/// Sends the outbox by itself: once when it starts, when the network route comes back, after
/// a sign-in, and every `interval` while changes wait — backing off (doubling up to
/// `maxDelay`) while the server stays away, idle once nothing waits. One pass at a time: the
/// passes run in turn on one loop, so two syncs never overlap (another process's sync is the
/// local store's lock's business: that pass just finds its changes waiting).
public actor SyncScheduler {
  /// Why a pass runs besides the timer and the route (the scheduler follows that itself).
  public enum Trigger: Sendable {
    case signedIn
    /// A change was kept on the device, by this process or another
    /// (``SyncedCollection/updates(_:checkingEvery:)`` over what waits tells).
    case changed
  }

  public struct Pass: Sendable, Equatable {
    /// Changes sent and confirmed by this pass.
    public var sent: Int
    /// Changes still waiting (the server could not be reached, or another sync held them).
    public var waiting: Int
    /// What went wrong with the local store itself (damaged, full, unreadable): no later pass
    /// can fix that, so a watching sync stops on it.
    public var problem: String?

    public init(sent: Int, waiting: Int, problem: String? = nil) {
      (self.sent, self.waiting, self.problem) = (sent, waiting, problem)
    }
  }

  private enum Event {
    case trigger
    case tick(Int)
  }

  private let interval: Duration
  private let maxDelay: Duration
  private let clock: any MonotonicClock
  private let send: @Sendable () async -> Pass
  private let events: AsyncStream<Event>
  private let yield: AsyncStream<Event>.Continuation
  private var timer: Task<Void, Never>?
  private var running: Task<Pass, Never>?
  private var generation = 0
  private var delay: Duration

  /// A scheduler running `send` (one pass over the outbox) on its triggers.
  public init(
    interval: Duration, maxDelay: Duration = .seconds(15 * 60),
    clock: any MonotonicClock = SystemMonotonicClock(), send: @escaping @Sendable () async -> Pass
  ) {
    self.interval = interval
    self.maxDelay = max(interval, maxDelay)
    self.clock = clock
    self.send = send
    self.delay = interval
    (events, yield) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(4))
  }

  /// Runs a pass now, on every trigger and timer, and each time `connectivity` goes from
  /// offline to online, until ``stop()``; `report` hears each pass.
  public func run(
    following connectivity: Connectivity? = nil,
    triggers: AsyncStream<Trigger> = AsyncStream { _ in },
    report: (@Sendable (Pass) -> Void)? = nil
  ) async {
    // Subscribed before the first pass, so a route that comes back during it is not missed.
    let routes = connectivity.map { ($0.updates(), $0.isOnline) }
    let forwarding = Task { [yield] in
      for await _ in triggers { yield.yield(.trigger) }
    }
    let following = routes.map { changes, wasOnline in
      Task { [yield] in
        var online = wasOnline
        for await now in changes {
          if now, !online { yield.yield(.trigger) }
          online = now
        }
      }
    }
    defer {
      forwarding.cancel()
      following?.cancel()
      timer?.cancel()
    }
    await pass(report)
    for await event in events {
      if case .tick(let number) = event, number != generation { continue }  // superseded
      await pass(report)
    }
  }

  /// Ends ``run(following:triggers:report:)``: the pass under way stops after the change in
  /// flight (never abandoned half-sent; it finishes within its request's deadline).
  public func stop() {
    timer?.cancel()
    running?.cancel()
    yield.finish()
  }

  private func pass(_ report: (@Sendable (Pass) -> Void)?) async {
    let task = Task { [send] in await send() }
    running = task
    let result = await task.value
    running = nil
    report?(result)
    timer?.cancel()
    generation += 1
    guard result.waiting > 0 else {
      delay = interval  // nothing waits: idle until a trigger
      return
    }
    let wait = delay
    delay = min(delay * 2, maxDelay)
    let number = generation
    timer = Task { [clock, yield] in
      do { try await clock.sleep(for: wait) } catch { return }
      yield.yield(.tick(number))
    }
  }
}

/// What a ``SyncScheduler`` pass sends: an outbox of the owner signed in now
/// (``SyncedCollection`` is one; an app may wrap one to count its syncs).
public protocol OutboxSender: Sendable {
  /// One sync of the current owner's pending changes: the changes it tried, as they now stand.
  /// - Throws: `FileError.syncInProgress` when another sync holds the store.
  func sendPending() async throws -> [OutboxEntry]
  /// The current owner's changes, oldest first.
  func outbox(of owner: DataOwner?) async throws -> [OutboxEntry]
}

extension SyncedCollection: OutboxSender {
  public func sendPending() async throws -> [OutboxEntry] { try await sync().map(\.entry) }
}

extension SyncScheduler {
  /// A pass over `outboxes`, in that order (the app's composition root names them: posts, then
  /// todos); a stop ends it after the change in flight.
  public static func outbox(_ outboxes: [any OutboxSender]) -> @Sendable () async -> Pass {
    {
      var sent = 0
      var problem: String?
      // Another sync holding a store, or a stop: the changes wait for the next pass. Anything
      // else the store throws is its own trouble, which waiting does not fix.
      func note(_ error: any Error) {
        guard let store = error as? FileError else { return }
        if case .syncInProgress = store { return }
        problem = problem ?? store.description
      }
      /// Read in a task of its own: a stopped pass (its task cancelled) still counts what it
      /// sent and what waits, even when the store's lock is busy a moment and its wait would
      /// end at the cancellation.
      func changes(_ outbox: some OutboxSender) async -> [OutboxEntry] {
        await Task { (try? await outbox.outbox(of: nil)) ?? [] }.value
      }
      func pending(_ outbox: some OutboxSender) async -> [OutboxEntry] {
        await changes(outbox).filter { $0.status == .pending }
      }
      /// The changes one sync sent: its outcomes; when it was stopped (a signal ends a watch),
      /// those pending before it that the store now has as synced — a pass that sent four
      /// before the stop says four.
      func synced(_ outbox: some OutboxSender) async -> Int {
        let before = Set(await pending(outbox).map(\.id))
        do {
          return try await outbox.sendPending().filter { $0.status == .synced }.count
        } catch {
          note(error)
          return await changes(outbox).filter { $0.status == .synced && before.contains($0.id) }
            .count
        }
      }
      // A stop (the pass's task cancelled) during one sync leaves the others for the next
      // pass; one before the pass starts sends nothing.
      for outbox in outboxes where !Task.isCancelled {
        sent += await synced(outbox)
      }
      var waiting = 0
      for outbox in outboxes { waiting += await pending(outbox).count }
      return Pass(sent: sent, waiting: waiting, problem: problem)
    }
  }
}
