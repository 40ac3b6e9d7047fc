import DemoKit
import DemoKitTesting
import Foundation
import Strata
import StrataTesting
import Testing

/// Every mutation shows its change before the server answers, and goes back (with the
/// server's message) when the server refuses. The fakes hold the mutation's answer at a gate,
/// so the test looks at the view model while the request is still in flight.
@MainActor
@Suite("Optimistic mutations: shown at once, reverted on failure")
struct OptimisticMutationTests {
  static let refused = NetworkError.server(status: 500, serverMessage: "the database is down")

  /// A script whose `name` calls wait at the returned gate (and fail, if `fails`).
  func script(holding name: String, fails: Bool) -> (FakeScript, Gate) {
    let script = FakeScript()
    let gate = script.hold(name)
    if fails { script.fail(name, with: Self.refused) }
    return (script, gate)
  }

  @Test(arguments: [false, true])
  func createShowsTheNewPostFirstThenTheServersOrNothing(fails: Bool) async throws {
    let (script, gate) = script(holding: "create", fails: fails)
    let model = PostsViewModel(repo: FakePostsRepository(script: script))
    await model.load(limit: 5)
    let creating = Task { try await model.create(PostDraft(title: "New", body: "Text", userId: 2)) }
    try await gate.waitUntilEntered()
    #expect(model.rows.map(\.item).first?.title == "New", "shown before the server answered")
    #expect(model.rows.map(\.item).count == 6)
    #expect(model.rows.first?.status == .pending, "marked as saving")
    if case .local = model.rows.first?.id {
    } else {
      Issue.record("under a local id until numbered")
    }
    gate.open()
    let outcome = await creating.result
    #expect(model.rows.allSatisfy { $0.status == .synced })
    if fails {
      #expect(model.rows.map(\.item).map(\.id) == [1, 2, 3, 4, 5], "the guess went away")
      #expect(throws: NetworkError.self, "the error is thrown, not parked") {
        try outcome.get()
      }
    } else {
      #expect(model.rows.map(\.item).first?.id == 6, "the server's post replaced the guess")
      #expect(try outcome.get().item.id == 6 && model.state.message == nil)
    }
  }

  @Test(arguments: [false, true])
  func editShowsTheNewTitleThenKeepsOrRestoresIt(fails: Bool) async throws {
    let (script, gate) = script(holding: "update", fails: fails)
    let model = PostsViewModel(repo: FakePostsRepository(script: script))
    await model.load(limit: 5)
    let editing = Task { try await model.edit(.server(2), PostEdit(title: "Renamed")) }
    try await gate.waitUntilEntered()
    #expect(model.rows[1].item.title == "Renamed" && model.rows[1].status == .pending)
    gate.open()
    let outcome = await editing.result
    #expect(model.rows[1].item.title == (fails ? "Post 2" : "Renamed"))
    #expect(model.rows[1].status == .synced)
    if fails {
      #expect(throws: NetworkError.self, "the error is thrown") { try outcome.get() }
    } else {
      #expect(try outcome.get().item.title == "Renamed")
    }
  }

  @Test(arguments: [false, true])
  func deleteTakesThePostAwayThenForgetsOrRestoresIt(fails: Bool) async throws {
    let (script, gate) = script(holding: "delete", fails: fails)
    let model = PostsViewModel(repo: FakePostsRepository(script: script))
    await model.load(limit: 5)
    let deleting = Task { try await model.delete(.server(3)) }
    try await gate.waitUntilEntered()
    #expect(model.rows.map(\.item).map(\.id) == [1, 2, 4, 5], "gone before the server answered")
    gate.open()
    #expect((try? await deleting.value) == (fails ? nil : .deleted))
    #expect(
      model.rows.map(\.item).map(\.id) == (fails ? [1, 2, 3, 4, 5] : [1, 2, 4, 5]), "back in place")
  }

  @Test(arguments: [false, true])
  func toggleShowsTheFlipThenKeepsOrRevertsIt(fails: Bool) async throws {
    let (script, gate) = script(holding: "update", fails: fails)
    let model = TodosViewModel(repo: FakeTodosRepository(script: script))
    await model.load(limit: 5)
    let toggling = Task { try await model.toggle(.server(1)) }
    try await gate.waitUntilEntered()
    #expect(
      model.rows.map(\.item).first?.completed == true, "shown done before the server answered")
    gate.open()
    let outcome = await toggling.result
    #expect(model.rows.map(\.item).first?.completed == !fails)
    if fails {
      #expect(throws: NetworkError.self, "the error is thrown") { try outcome.get() }
    } else {
      #expect(try outcome.get().item.completed && model.state.message == nil)
    }
  }

  @Test(arguments: [false, true])
  func renamingAUserShowsTheNameThenKeepsOrRestoresIt(fails: Bool) async throws {
    let (script, gate) = script(holding: "rename", fails: fails)
    let model = UserViewModel(repo: FakeUsersRepository(script: script))
    await model.load(id: 1)
    let loaded = try #require(model.user)
    let renaming = Task { await model.rename(firstName: "Em") }
    try await gate.waitUntilEntered()
    #expect(model.user?.firstName == "Em" && model.isSaving)
    gate.open()
    #expect(await renaming.value == !fails)
    #expect(model.user?.firstName == (fails ? "Emily" : "Em") && !model.isSaving)
    #expect(
      model.state.message
        == (fails ? "Could not rename user 1: HTTP 500: the database is down" : nil))
    if fails { #expect(model.user == loaded, "the user as loaded, every field") }
    // One load and one rename, whatever the outcome: a failure puts back what was shown
    // without asking the server again.
    #expect(script.calls == ["user(1)", "rename(1, Em)"])
  }
}

@Suite("DemoKitTesting: fixtures and fakes")
struct DemoKitTestingTests {
  @Test func fakesRecordCallsAndFailWhereScripted() async throws {
    let script = FakeScript()
    let users = FakeUsersRepository(script: script)
    let page = try await users.page(limit: 3, skip: 2)
    #expect(page.items.map(\.id) == [3, 4, 5] && page.total == User.previews.count)
    script.fail("user", with: NetworkError.server(status: 503))
    await #expect(throws: NetworkError.server(status: 503)) { try await users.user(id: 1) }
    script.succeed("user")
    #expect(try await users.user(id: 1) == .preview)
    #expect(script.calls == ["page(3, 2)", "user(1)", "user(1)"])
    await #expect(throws: NetworkError.self) { try await users.user(id: 999) }
  }

  @Test func fixturesAreInTheServicesShape() throws {
    let encoded = try JSONEncoder().encode(Page.preview(User.previews))
    let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
    #expect((object["users"] as? [Any])?.count == 10 && object["total"] as? Int == 10)
    #expect(Set(User.previews.map(\.id)).count == User.previews.count)
    #expect(Post.previews.count == 5 && Todo.previews.filter(\.completed).map(\.id) == [3])
    #expect(PostComment.previews.allSatisfy { $0.postId == 1 })
  }

  @MainActor
  @Test func aSignInAgainstTheFakeAccount() async throws {
    let auth = FakeAuthRepository()
    let login = LoginViewModel(repo: auth)
    login.username = "emilys"
    login.password = "wrong"
    #expect(await login.login() == false && login.state.message == "Invalid credentials")
    login.password = "emilyspass"
    #expect(await login.login() && login.user == .preview)
    #expect(try await auth.me() == .preview)
    #expect(auth.script.calls == ["login(emilys)", "login(emilys)", "me()"])
  }
}
