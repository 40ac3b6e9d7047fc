import DemoKit
import DemoKitTesting
import Foundation
import Observation
import Strata
import StrataConcurrency
import Testing

/// Every view model's state is observable: `withObservationTracking` — what SwiftUI uses —
/// is told when the state a screen reads changes. Without `@Observable` (or with the state
/// marked `@ObservationIgnored`) these fail.
@MainActor
@Suite("View models notify their observers")
struct ObservationTests {
  /// Tracks what `read` reads, runs `change`, and says whether observers were told.
  func notifies(_ read: @escaping @MainActor () -> Any, when change: () async -> Void) async
    -> Bool
  {
    let told = Lock(false)
    withObservationTracking {
      _ = read()
    } onChange: {
      told.withLock { $0 = true }
    }
    await change()
    return told.withLock { $0 }
  }

  @Test func listAndDetailViewModels() async {
    let users = UsersViewModel(repo: FakeUsersRepository())
    #expect(await notifies({ users.output }, when: { await users.send(.load) }))
    let user = UserViewModel(repo: FakeUsersRepository())
    #expect(await notifies({ user.user as Any }, when: { await user.load(id: 1) }))
    let saving = UserViewModel(repo: FakeUsersRepository())
    await saving.load(id: 1)
    #expect(await notifies({ saving.isSaving }, when: { _ = await saving.rename(firstName: "Em") }))
    let posts = PostsViewModel(repo: FakePostsRepository())
    #expect(await notifies({ posts.rows.map(\.item) }, when: { await posts.load() }))
    let detail = PostDetailViewModel(
      posts: FakePostsRepository(), comments: FakeCommentsRepository())
    #expect(await notifies({ detail.comments }, when: { await detail.load(id: 1) }))
    let todos = TodosViewModel(repo: FakeTodosRepository())
    #expect(await notifies({ todos.rows.map(\.item) }, when: { await todos.load() }))
  }

  @Test func failuresAreObservedToo() async {
    let script = FakeScript()
    script.fail("list", with: NetworkError(.offline))
    let todos = TodosViewModel(repo: FakeTodosRepository(script: script))
    #expect(await notifies({ todos.state.message as Any }, when: { await todos.load() }))
  }

  @Test func accountViewModels() async {
    let login = LoginViewModel(repo: FakeAuthRepository())
    login.username = "emilys"
    login.password = "emilyspass"
    #expect(await notifies({ login.user as Any }, when: { _ = await login.login() }))
    let form = LoginViewModel(repo: FakeAuthRepository())
    #expect(await notifies({ form.username }, when: { form.username = "typed" }))
    let profile = ProfileViewModel(repo: FakeAuthRepository(signedIn: true))
    #expect(await notifies({ profile.user as Any }, when: { await profile.load() }))
  }

  @Test func postsKeptOnTheDevice() async throws {
    let directory = NSTemporaryDirectory() + "strata-observe-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let offline = OfflinePosts(
      stores: { _ in LocalStore(path: directory + "/posts") }, owner: { .device },
      repository: FakePostsRepository())
    let local = LocalPostsViewModel(posts: offline)
    #expect(await notifies({ local.items }, when: { await local.load() }))
  }

  @Test func navigationAppAndFlows() async {
    let router = Router()
    #expect(await notifies({ router.path }, when: { router.push(.user(id: 1)) }))
    #expect(await notifies({ router.selectedTab }, when: { router.select(.posts) }))

    let (events, sink) = AsyncStream.makeStream(of: AuthEvent.self)
    let app = AppModel(events: events, signedIn: { false }, router: Router())
    #expect(await notifies({ app.isSignedIn }, when: { app.handle(.signedIn) }))
    sink.finish()

    let flow = FlowViewModel(steps: ["one", "two"]) {}
    #expect(await notifies({ flow.current }, when: { await flow.next() }))
    let newPost = NewPostFlow(posts: PostsViewModel(repo: FakePostsRepository()), userId: 1)
    #expect(await notifies({ newPost.fields.title }, when: { newPost.fields.title = "Hello" }))
  }
}
