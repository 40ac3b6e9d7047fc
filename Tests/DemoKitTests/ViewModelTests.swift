import DemoKit
import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

/// Answers a search with one user named after the query; the search for `heldQuery` waits at
/// the gate first.
final class GatedUsersRepo: UsersRepository {
  let gate: Gate
  let heldQuery: String
  init(gate: Gate, heldQuery: String) {
    self.gate = gate
    self.heldQuery = heldQuery
  }
  func page(limit: Int, skip: Int) async throws -> Page<User> {
    Page(items: [], total: 0, skip: 0, limit: 0)
  }
  func search(_ query: String, limit: Int, skip: Int) async throws -> Page<User> {
    if query == heldQuery { await gate.pass() }
    let user = try JSONDecoder().decode(
      User.self, from: Data(#"{"id":1,"firstName":"\#(query)","lastName":"L"}"#.utf8))
    return Page(items: [user], total: 1, skip: 0, limit: 1)
  }
  func user(id: Int) async throws -> User { makeUser(id) }
  func rename(id: Int, firstName: String) async throws -> User { makeUser(id) }
}

/// Users 1…total, paged; can be told to fail the next calls.
final class MockUsersRepo: UsersRepository {
  let total: Int
  private let failures = Lock(0)
  private let calls = Lock<[String]>([])

  init(total: Int = 23) { self.total = total }
  func failNext(_ count: Int) { failures.withLock { $0 = count } }
  var log: [String] { calls.withLock { $0 } }

  private func check() throws {
    let fail = failures.withLock { count -> Bool in
      defer { count = max(0, count - 1) }
      return count > 0
    }
    if fail { throw NetworkError.transport(URLError(.notConnectedToInternet)) }
  }

  func page(limit: Int, skip: Int) async throws -> Page<User> {
    calls.withLock { $0.append("page \(skip)") }
    try check()
    let ids = Array((skip + 1)...min(total, skip + limit))
    return Page(items: ids.map(makeUser), total: total, skip: skip, limit: ids.count)
  }
  func search(_ query: String, limit: Int, skip: Int) async throws -> Page<User> {
    calls.withLock { $0.append("search \(query)") }
    try check()
    return Page(items: [makeUser(7)], total: 1, skip: 0, limit: 1)
  }
  func user(id: Int) async throws -> User { makeUser(id) }
  func rename(id: Int, firstName: String) async throws -> User { makeUser(id) }
}

final class MockTodosRepo: TodosRepository {
  let fails: Bool
  init(fails: Bool) { self.fails = fails }
  func list(limit: Int, skip: Int) async throws -> Page<Todo> {
    Page(
      items: [
        Todo(id: 1, todo: "a", completed: false, userId: 1),
        Todo(id: 2, todo: "b", completed: true, userId: 1),
      ], total: 2, skip: 0, limit: 2)
  }
  func item(id: Int) async throws -> Todo { Todo(id: id, todo: "a", completed: false, userId: 1) }
  func latest(id: Int) async throws -> (item: Todo, version: String?) {
    (try await item(id: id), nil)
  }
  func update(id: Int, _ edit: TodoEdit, idempotencyKey: String, ifMatch version: String?)
    async throws -> (item: Todo, version: String?)
  {
    if fails { throw NetworkError.server(status: 500, serverMessage: "boom") }
    return (edit.applied(to: Todo(id: id, todo: "a", completed: false, userId: 1)), nil)
  }
  func create(_ draft: TodoDraft, idempotencyKey: String) async throws -> Todo {
    Todo(id: 3, todo: draft.todo, completed: draft.completed, userId: draft.userId)
  }
  func delete(id: Int, idempotencyKey: String, ifMatch version: String?) async throws {}
}

final class MockAuthRepo: AuthRepository {
  private let attempts = Lock<[String]>([])
  var logins: [String] { attempts.withLock { $0 } }
  func login(username: String, password: String) async throws -> AuthUser {
    attempts.withLock { $0.append(username) }
    guard password == "emilyspass" else {
      throw NetworkError.server(status: 400, serverMessage: "Invalid credentials")
    }
    return try JSONDecoder().decode(
      AuthUser.self,
      from: Data(
        #"{"id":1,"username":"emilys","email":"e","firstName":"Emily","lastName":"J"}"#.utf8))
  }
  func refresh(refreshToken: String) async throws -> Credentials {
    throw NetworkError.unauthorized(.refreshRejected)
  }
  func me() async throws -> User { throw NetworkError.unauthorized(.refreshRejected) }
  func logout() async {}
  var isSignedIn: Bool { get async { false } }
}

@MainActor
@Suite("View models")
struct ViewModelTests {
  @Test func usersLoadingErrorRetryAndPaging() async {
    let repo = MockUsersRepo(total: 23)
    let model = UsersViewModel(repo: repo, pageSize: 10)
    repo.failNext(1)
    await model.send(.load)
    #expect(model.output.state.message == "network error: not connected to the internet")
    #expect(!model.output.state.isLoading && model.output.users.isEmpty)

    await model.send(.retry)
    #expect(model.output.state.message == nil)
    #expect(model.output.users.map(\.id) == Array(1...10))
    #expect(model.output.canLoadMore)

    await model.send(.loadMore)
    await model.send(.loadMore)
    #expect(model.output.users.map(\.id) == Array(1...23))
    #expect(!model.output.canLoadMore)
    await model.send(.loadMore)
    #expect(repo.log == ["page 0", "page 0", "page 10", "page 20"], "stops at total")
  }

  @Test func aStaleSearchNeverOverwritesANewerOne() async throws {
    let gate = Gate()
    let repo = GatedUsersRepo(gate: gate, heldQuery: "old")
    let model = UsersViewModel(repo: repo, pageSize: 10)
    let stale = Task { await model.send(.search("old")) }
    try await gate.waitUntilEntered()
    await model.send(.search("new"))
    #expect(model.output.users.map(\.firstName) == ["new"] && !model.output.state.isLoading)
    gate.open()
    await stale.value
    #expect(model.output.users.map(\.firstName) == ["new"], "the late answer was dropped")
    #expect(model.output.query == "new" && !model.output.state.isLoading)
  }

  @Test func errorClearsAtTheStartOfTheNextFetch() async {
    let repo = MockUsersRepo()
    let model = UsersViewModel(repo: repo)
    repo.failNext(1)
    await model.send(.search("x"))
    #expect(model.output.state.message != nil)
    await model.send(.search("emily"))
    #expect(
      model.output.state.message == nil && model.output.users.map(\.id) == [7]
        && model.output.query == "emily")
  }

  @Test func failedLoadMoreKeepsLoadedUsersAndRetryContinues() async {
    let repo = MockUsersRepo(total: 23)
    let model = UsersViewModel(repo: repo, pageSize: 10)
    await model.send(.load)
    repo.failNext(1)
    await model.send(.loadMore)
    #expect(model.output.users.count == 10 && model.output.state.message != nil)
    await model.send(.retry)
    #expect(model.output.users.map(\.id) == Array(1...20))
  }

  @Test func selectEmitsAnEffect() async {
    let model = UsersViewModel(repo: MockUsersRepo())
    await model.send(.select(id: 5))
    var effects = model.effects.makeAsyncIterator()
    #expect(await effects.next() == .showUser(id: 5))
  }

  @Test func toggleKeepsOnSuccessAndRevertsOnFailure() async throws {
    let good = TodosViewModel(repo: MockTodosRepo(fails: false))
    await good.load()
    #expect(try await good.toggle(.server(1)).status == .synced)
    #expect(good.rows.map(\.item).first?.completed == true && good.state.message == nil)

    let bad = TodosViewModel(repo: MockTodosRepo(fails: true))
    await bad.load()
    await #expect(throws: NetworkError.self) { try await bad.toggle(.server(2)) }
    #expect(bad.rows.map(\.item).last?.completed == true, "reverted")
  }

  @Test func loginValidationMessages() async {
    let repo = MockAuthRepo()
    let model = LoginViewModel(repo: repo)
    #expect(await model.login() == false)
    #expect(model.validationMessage == "Enter your username.")
    model.username = "emily s"
    #expect(!model.validate() && model.validationMessage == "A username has no spaces.")
    model.username = " emilys "
    #expect(!model.validate() && model.validationMessage == "Enter your password.")
    model.password = "wrong"
    #expect(await model.login() == false)
    #expect(model.validationMessage == nil && model.state.message == "Invalid credentials")
    model.password = "emilyspass"
    #expect(await model.login())
    #expect(
      model.user?.username == "emilys" && model.state.message == nil && model.password.isEmpty)
    #expect(repo.logins == ["emilys", "emilys"])
  }

  @Test func profileShowsSignedOut() async {
    let model = ProfileViewModel(repo: MockAuthRepo())
    await model.load()
    #expect(model.user == nil && !model.isSignedIn)
    #expect(model.state.message == "You are signed out. Log in again.")
  }

  @Test func routerTabsAndStacks() {
    let router = Router()
    router.push(.user(id: 3))
    router.push(.post(id: 9))
    #expect(router.path == [.user(id: 3), .post(id: 9)])
    router.select(.todos)
    #expect(router.path.isEmpty)
    router.push(.login)
    router.select(.users)
    router.pop()
    #expect(router.path == [.user(id: 3)])
    router.popToRoot()
    router.pop()
    #expect(router.path.isEmpty)
    router.select(.todos)
    #expect(router.path == [.login])
  }
}
