import DemoKit
import DemoKitTesting
import Foundation
import Strata
import StrataSandbox
import StrataTesting
import Testing

@MainActor
@Suite("AppModel: auth events and effects drive navigation")
struct AppModelTests {
  @Test func everySignOutReasonShowsLoginWithItsMessageAndASignInDismissesIt() async {
    let (events, sink) = AsyncStream.makeStream(of: AuthEvent.self)
    let router = Router()
    let app = AppModel(events: events, signedIn: { true }, router: router)
    let running = Task { await app.run() }
    defer { running.cancel() }
    await eventually("the initial state") { app.isSignedIn }
    #expect(router.path.isEmpty, "signed in: no login screen")

    for reason in [SignOutReason.requested, .refreshRejected, .refreshLoop, .tokenRejected] {
      sink.yield(.signedOut(reason))
      await eventually("login for \(reason)") { router.path == [.login] && !app.isSignedIn }
      #expect(app.signOutMessage == AppModel.message(for: reason))
      #expect(router.selectedTab == .profile)
      sink.yield(.signedIn)
      await eventually("dismissed after \(reason)") { router.path.isEmpty && app.isSignedIn }
      #expect(app.signOutMessage == nil)
    }
    sink.yield(.signedOut(.tokenRejected))
    sink.yield(.signedOut(.tokenRejected))
    await eventually("login shown once") { !app.isSignedIn }
    #expect(router.path == [.login], "never pushed twice")
  }

  @Test func startingWithoutASessionShowsLogin() async {
    let router = Router()
    let app = AppModel(events: AsyncStream { $0.finish() }, signedIn: { false }, router: router)
    await app.run()
    #expect(router.path == [.login] && !app.isSignedIn)
  }

  @Test func usersEffectsBecomePushes() async {
    let router = Router()
    let app = AppModel(events: AsyncStream { _ in }, signedIn: { true }, router: router)
    let users = UsersViewModel(repo: MockUsersRepo())
    let following = Task { await app.follow(users.effects) }
    defer { following.cancel() }
    await users.send(.select(id: 7))
    await users.send(.select(id: 9))
    await eventually("two pushes") { router.path == [.user(id: 7), .user(id: 9)] }
  }

  @Test func theNetworkRouteIsFollowed() async {
    let connectivity = Connectivity(isOnline: false)
    let app = AppModel(
      events: AsyncStream { _ in }, signedIn: { true }, router: Router(),
      connectivity: connectivity)
    let running = Task { await app.run() }
    defer { running.cancel() }
    await eventually("offline at start") { app.isOffline }
    connectivity.set(online: true)
    await eventually("back online") { !app.isOffline }
  }

  /// The whole chain, live: the token expires while the user pages through the list, the
  /// sandbox rejects the refresh, the session ends, and the app shows login with the reason.
  @Test func aRejectedRefreshWhilePagingUsersRoutesToLogin() async throws {
    try await DemoHarness.with(
      extraConfig: "USERS_REQUIRE_SIGN_IN = YES", clientUsesClock: false
    ) { harness, clock in
      let container = harness.container
      let login = try container.resolve(LoginViewModel.self)
      login.username = "emilys"
      login.password = "emilyspass"
      #expect(await login.login())
      let app = try container.resolve(AppModel.self)
      let running = Task { await app.run() }
      defer { running.cancel() }
      await eventually("signed in") { app.isSignedIn }

      let users = try container.resolve(UsersViewModel.self, argument: 5)
      await users.send(.load)
      #expect(users.output.users.count == 5 && users.output.state.message == nil)

      clock.advance(120)  // the 1-minute token is now expired on the server
      harness.server.faults.fail(403, method: "POST", path: "/auth/refresh")
      await users.send(.loadMore)

      await eventually("routed to login") { app.router.path.last == .login }
      #expect(app.signOutMessage == "Your session has expired. Sign in again.")
      #expect(!app.isSignedIn)
      #expect(users.output.users.count == 5, "the first page stays")
      #expect(users.output.state.message == "You are signed out. Log in again.")
      #expect(harness.server.journal.count(method: "POST", path: "/auth/refresh") == 1)
      #expect(harness.server.journal.count(method: "GET", path: "/auth/users") == 2)
    }
  }
}

@MainActor
@Suite("View models say when they are offline")
struct OfflineViewModelTests {
  @Test func anOfflineFailureIsShownAsSuch() async {
    let script = FakeScript()
    script.fail("page", with: NetworkError(.offline))
    let users = UsersViewModel(repo: FakeUsersRepository(script: script))
    await users.send(.load)
    #expect(
      users.output.state.isOffline && users.output.state.message == "offline: no network route")
    script.succeed("page")
    await users.send(.retry)
    #expect(!users.output.state.isOffline && users.output.users.count == 10)

    let postsScript = FakeScript()
    postsScript.fail("list", with: NetworkError(.offline, request: "GET /posts"))
    let posts = PostsViewModel(repo: FakePostsRepository(script: postsScript))
    await posts.load()
    #expect(posts.state.isOffline)
    postsScript.fail("list", with: NetworkError.server(status: 500))
    await posts.load()
    #expect(!posts.state.isOffline, "another failure is not 'offline'")
  }
}
