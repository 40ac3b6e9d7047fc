import Observation
import Strata

/// The app-level model — the architecture's session manager. It follows the session's events
/// and the network route, and drives navigation: a sign-out for any reason takes the app to
/// the login screen with the reason shown; a sign-in takes it away; view models' effects
/// become router pushes. No UI needed: tests drive it through its streams.
@MainActor @Observable
public final class AppModel {
  /// Whether a session exists (as the last event said).
  public private(set) var isSignedIn = false
  /// Why the user has to sign in again, shown on the login screen; nil after a sign-in.
  public private(set) var signOutMessage: String?
  /// Whether the device has no network route.
  public private(set) var isOffline = false
  /// The navigation it drives.
  public let router: Router
  @ObservationIgnored private let events: AsyncStream<AuthEvent>
  @ObservationIgnored private let signedIn: @Sendable () async -> Bool
  @ObservationIgnored private let connectivity: Connectivity?
  @ObservationIgnored private let connectivityChanges: AsyncStream<Bool>?
  @ObservationIgnored private let scheduler: SyncScheduler?
  @ObservationIgnored private let syncTriggers: AsyncStream<SyncScheduler.Trigger>
  @ObservationIgnored private let syncTrigger: AsyncStream<SyncScheduler.Trigger>.Continuation

  /// A model following `events` (an `AuthSession`'s) and `connectivity`; `signedIn` says
  /// whether a session exists when ``run()`` starts; `scheduler` sends the outbox while it
  /// runs, told when the route comes back and after each sign-in.
  public nonisolated init(
    events: AsyncStream<AuthEvent>, signedIn: @escaping @Sendable () async -> Bool,
    router: Router, connectivity: Connectivity? = nil, scheduler: SyncScheduler? = nil
  ) {
    self.scheduler = scheduler
    (syncTriggers, syncTrigger) = AsyncStream.makeStream(
      of: SyncScheduler.Trigger.self, bufferingPolicy: .bufferingNewest(4))
    self.events = events
    self.signedIn = signedIn
    self.router = router
    self.connectivity = connectivity
    self.connectivityChanges = connectivity?.updates()
  }

  /// Follows the session and the network route until cancelled (a scene's `.task { }`).
  public func run() async {
    isOffline = !(connectivity?.isOnline ?? true)
    isSignedIn = await signedIn()
    if !isSignedIn { router.showLogin() }
    let following = connectivityChanges.map { changes in
      Task { [weak self] in
        for await online in changes { self?.isOffline = !online }
      }
    }
    let syncing = scheduler.map { scheduler in
      Task { [syncTriggers, connectivity] in
        await scheduler.run(following: connectivity, triggers: syncTriggers)
      }
    }
    defer {
      following?.cancel()
      if let scheduler { Task { await scheduler.stop() } }
      syncing?.cancel()
    }
    for await event in events { handle(event) }
  }

  /// Reacts to one session event.
  public func handle(_ event: AuthEvent) {
    switch event {
    case .signedIn:
      syncTrigger.yield(.signedIn)
      isSignedIn = true
      signOutMessage = nil
      router.dismissLogin()
    case .refreshed:
      break
    case .signedOut(let reason):
      isSignedIn = false
      signOutMessage = Self.message(for: reason)
      router.showLogin()
    }
  }

  /// Turns the users list's effects into navigation until the stream ends.
  public func follow(_ effects: AsyncStream<UsersViewModel.Effect>) async {
    for await effect in effects {
      switch effect {
      case .showUser(let id): router.push(.user(id: id))
      }
    }
  }

  /// The sentence the login screen shows for a sign-out.
  public static func message(for reason: SignOutReason) -> String {
    let text = Localized.current
    return switch reason {
    case .requested: text("signout.requested")
    case .refreshRejected: text("signout.refreshRejected")
    case .refreshLoop: text("signout.refreshLoop")
    case .tokenRejected: text("signout.tokenRejected")
    case .switchedAccount: text("signout.switchedAccount")
    case .endedElsewhere: text("signout.endedElsewhere")
    }
  }
}
