import DemoKit
import Foundation
import Strata
import StrataSandbox

/// `tour`: every layer, live, on the embedded sandbox, each step saying what the layer did.
/// The sandbox's journal is the evidence: requests, attempts and refreshes are counted, not
/// claimed. Uses an in-memory session so it never touches a real one.
@MainActor
enum TourCommand {
  nonisolated static let steps = 14

  nonisolated static let commands = [
    Command(
      "tour", summary: "Run every layer live against the embedded sandbox, narrating each step.",
      example: "strata-demo tour", run: .standalone(run))
  ]

  static func run(_ invocation: Invocation) async throws -> Output {
    let started = ContinuousClock.now
    let storeDirectory = NSTemporaryDirectory() + "strata-tour-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: storeDirectory) }
    let app = try await AppContext.start(
      invocation,
      overrides: [
        .api: "sandbox", .tokenStore: "memory", .tokenLifetime: "30m",
        .retryBaseDelay: "50ms", .retryMaxDelay: "400ms", .usersCacheTTL: "60s",
        .storeDirectory: storeDirectory,
      ])
    do {
      try await narrate(app, invocation, started: started)
    } catch {
      await app.shutdown()
      throw error
    }
    await app.shutdown()
    return .none
  }

  private static func narrate(
    _ app: AppContext, _ invocation: Invocation, started: ContinuousClock.Instant
  ) async throws {
    guard let sandbox = app.sandbox else {
      throw UsageError("the tour needs the embedded sandbox", invocation.command)
    }
    let journal = sandbox.journal
    let tour = Narrator(journal: journal)

    try introduce(app, sandbox, tour)
    let (profile, userId) = try await signIn(app, tour)
    try await read(app, sandbox, tour)
    try await write(app, sandbox, tour, userId: userId)
    try await editOffline(app, sandbox, tour, userId: userId)
    try await toggleTodo(app, sandbox, tour)
    try await httpCache(app, sandbox, tour)

    // 14. Logout
    tour.step(14, "Sign out")
    await profile.signOut()
    await profile.load()
    tour.say(
      "signed out; the profile now says: \(profile.state.message ?? "?") (no request was sent)")
    tour.evidence()

    let elapsed = ContinuousClock.now - started
    Terminal.out("")
    Terminal.out(
      "Tour complete in \(Output.duration(elapsed)): \(journal.count()) requests, "
        + "\(journal.count(method: "POST", path: "/auth/refresh")) token refresh, every layer live — "
        + "Config → Log → Request → NetworkService → Repository → ViewModel, wired by DependencyContainer."
    )
  }

  /// Steps 1–2: what was read and wired, and the environment's defaults.
  private static func introduce(_ app: AppContext, _ sandbox: SandboxServer, _ tour: Narrator)
    throws
  {
    // 1. Config, Log, DI
    tour.step(1, "Config, Log and the DI container")
    tour.say(
      "read \(app.configFile ?? "built-in defaults") (\(app.config.entries.count) keys; --set and STRATA_* override it)"
    )
    let retry = try app.resolve(NetworkOptions.self).retryPolicy
    tour.say("API → embedded sandbox at \(sandbox.baseURL.absoluteString)")
    tour.say(
      "retry policy: GET only, \(retry.maxRetries) retries, backoff \(Output.duration(retry.baseDelay)) doubling, cap \(Output.duration(retry.maxDelay))"
    )
    tour.say(
      "DemoContainer.validate(): \(app.container.registeredServices.count) registrations resolve (services → repositories → view models)"
    )

    // 2. The environment
    let environment = try app.resolve(AppEnvironment.self)
    tour.step(2, "The environment: \(environment)")
    tour.say(
      "environment: \(environment) (ENVIRONMENT; a release build defaults to production)")
    let chosen = environment.defaults.keys.filter { app.config.value($0)?.origin == .defaults }
    tour.say(
      "its defaults, where nothing else set the key: "
        + chosen.map(\.name).sorted().map {
          "\($0) = \(app.config.value(Config.Key($0))?.displayValue ?? "")"
        }
        .joined(separator: ", "))
    tour.evidence()
  }

  /// Steps 3–5: validation, sign-in, an authenticated request, a transparent refresh.
  private static func signIn(_ app: AppContext, _ tour: Narrator) async throws -> (
    ProfileViewModel, Int
  ) {
    // 3. Login
    tour.step(3, "LoginViewModel → AuthRepository → NetworkService: sign in")
    let login = try app.resolve(LoginViewModel.self)
    await login.login()
    tour.say("empty form: \(login.validationMessage ?? "-") (validation, nothing sent)")
    login.username = SandboxServer.demoAccount.username
    login.password = SandboxServer.demoAccount.password
    guard await login.login(), let user = login.user else {
      throw tour.failure("login failed: \(login.state.message ?? "?")")
    }
    tour.say(
      "signed in as \(user.firstName) \(user.lastName) (@\(user.username)); the tokens stay inside AuthSession"
    )
    tour.evidence()

    // 4. Me
    tour.step(4, "ProfileViewModel: an authenticated request")
    let profile = try app.resolve(ProfileViewModel.self)
    await profile.load()
    guard let me = profile.user else { throw tour.failure(profile.state.message ?? "me failed") }
    tour.say(
      "GET /auth/me with Authorization: Bearer <redacted> → \(me.fullName), \(me.email ?? "")")
    tour.evidence()

    // 5. Expiry and refresh
    tour.step(5, "The access token expires → one transparent refresh")
    app.sandboxClock.advance(by: 2 * 3600)
    tour.say(
      "the sandbox's clock jumps 2 hours: the server now rejects the token (the client does not know)"
    )
    await profile.load()
    guard profile.user != nil else { throw tour.failure(profile.state.message ?? "refresh failed") }
    tour.say(
      "the view model just asked again and got \(profile.user?.firstName ?? "?") — it never saw the 401"
    )
    tour.evidence()
    return (profile, me.id)
  }

  /// Steps 6–8: a page and the cache, a GET retried with backoff, a post with its comments.
  private static func read(_ app: AppContext, _ sandbox: SandboxServer, _ tour: Narrator)
    async throws
  {
    // 6. Users and the cache
    tour.step(6, "UsersViewModel: a page, the cache, the next page")
    let users = UsersViewModel(repo: try app.resolve(), pageSize: 5)
    await users.send(.load)
    tour.say(
      Output.table(
        ["ID", "NAME", "EMAIL"],
        users.output.users.map { [String($0.id), $0.fullName, $0.email ?? ""] }))
    tour.evidence()
    await users.send(.load)
    tour.say("loaded again within the TTL: \(users.output.users.count) users from the cache")
    tour.evidence()
    await users.send(.loadMore)
    tour.say(
      "loadMore appended users \(users.output.users.dropFirst(5).first?.id ?? 0)–\(users.output.users.last?.id ?? 0) of \(users.output.total)"
    )
    tour.evidence()

    // 7. Retry with backoff
    tour.step(7, "A GET meets two 503s → retried with backoff")
    sandbox.faults.fail(503, method: "GET", path: "/posts", count: 2)
    let posts = try app.resolve((any PostsRepository).self)
    let page = try await posts.list(limit: 3, skip: 0)
    tour.say(
      "third attempt succeeded: \(page.items.count) posts, first \"\(Output.clip(page.items.first?.title ?? "", 40))\""
    )
    tour.evidence()

    // 8. A post with its comments
    tour.step(8, "PostDetailViewModel: a post and its comments, fetched in parallel")
    let detail = try app.resolve(PostDetailViewModel.self)
    await detail.load(id: page.items.first?.id ?? 1)
    guard let shownPost = detail.post else { throw tour.failure(detail.state.message ?? "no post") }
    tour.say("post #\(shownPost.id) \"\(Output.clip(shownPost.title, 40))\"")
    tour.say(
      Output.table(
        ["USER", "LIKES", "COMMENT"],
        detail.comments.map { [$0.user.username, String($0.likes), $0.body] }))
    tour.evidence()
  }

  /// Steps 9–11: a rule refusing a post, a POST retried under its key, one kept on the device.
  private static func write(
    _ app: AppContext, _ sandbox: SandboxServer, _ tour: Narrator, userId: Int
  ) async throws {
    // 9. A business rule, before the network
    tour.step(9, "PostsViewModel → PostRules: a blank title refused before anything is sent")
    let model = PostsViewModel(
      repo: try app.resolve(), analytics: TourAnalytics { Terminal.out("    analytics: \($0)") })
    let hello = PostDraft(title: "Hello from the tour", body: "Strata", userId: userId)
    do {
      try await model.create(PostDraft(title: "   ", body: "Strata", userId: userId))
      throw tour.failure("a blank title was accepted")
    } catch let refused as ValidationError {
      tour.say("refused — \(refused) (no request, no event)")
    }
    tour.evidence()

    // 10. A keyed POST: retried, made once
    tour.step(10, "A POST meets a 503 → retried under its key, made once; an analytics event")
    sandbox.faults.fail(503, method: "POST", path: "/posts/add")
    let madeBefore = sandbox.changesDone(path: "/posts/add")
    let created = try await model.create(hello).item
    let tries = sandbox.journal.entries.filter { $0.path == "/posts/add" }
    let keys = Set(tries.compactMap { $0.header("Idempotency-Key") })
    let createdBefore = sandbox.changesDone(path: "/posts/add")
    guard tries.count == 2, keys.count == 1, createdBefore == madeBefore + 1 else {
      throw tour.failure("the post was not retried and made once under one key")
    }
    tour.say("created post #\(created.id) at the second try, both with one Idempotency-Key")
    tour.evidence()

    // 11. Offline: kept, then sent once
    tour.step(11, "OfflinePosts: kept while the server is away, sent once; edits by local id")
    let offline = try app.resolve(OfflinePosts.self)
    sandbox.faults.fail(503, method: "POST", path: "/posts/add", count: 4)
    let queued = try await offline.create(
      PostDraft(title: "Written offline", body: "Strata", userId: userId))
    tour.say(
      "the server is away (503 to the try and its 3 retries, all with one Idempotency-Key): \"\(queued.item.title)\" is \(queued.status.rawValue) on the device"
    )
    tour.evidence()
    let outcomes = try await offline.sync()
    let sent = outcomes.first?.settled?.value
    tour.say(
      "the sandbox is back; sync: \(outcomes.map(\.entry.status.rawValue).joined(separator: ", ")) → post #\(sent?.id ?? 0); created on the server: \(sandbox.changesDone(path: "/posts/add") - createdBefore) time(s)"
    )
    tour.evidence()
  }

  /// Step 11, continued: a post made offline is edited while it waits (folded into its
  /// creation: one POST), then edited and deleted by its local id once the server has it — the
  /// sandbox keeping writes meanwhile, as `sandbox serve --keep-writes` does.
  private static func editOffline(
    _ app: AppContext, _ sandbox: SandboxServer, _ tour: Narrator, userId: Int
  ) async throws {
    let offline = try app.resolve(OfflinePosts.self)
    sandbox.keepsWrites = true
    defer { sandbox.keepsWrites = false }
    let made = try await offline.create(
      PostDraft(title: "Draft", body: "Strata", userId: userId), offline: true)
    guard let localId = made.localId else { throw tour.failure("no local id") }
    let local = ItemID.local(localId)
    _ = try await offline.edit(local, PostEdit(title: "Final title"), offline: true)
    let waiting = try await offline.outbox().filter { $0.status == .pending }.count
    tour.say(
      "made offline as local id \(localId), then edited: folded into its creation, \(waiting) change waits"
    )
    let sent = try await offline.sync().first?.settled?.value
    let renamed = try await offline.edit(local, PostEdit(title: "Renamed"))
    guard try await offline.delete(local) == .deleted, renamed.status == .synced else {
      throw tour.failure("the post made offline was not edited and deleted by its local id")
    }
    tour.say(
      "synced as post #\(sent?.id ?? 0) \"\(sent?.title ?? "")\"; then by local id \(localId): renamed and deleted on the server"
    )
    tour.say(
      "(this sandbox keeps writes, as 'sandbox serve --keep-writes'; DummyJSON would say 404)")
    tour.evidence()
  }

  /// Step 12: an optimistic toggle, reverted when the server refuses.
  private static func toggleTodo(_ app: AppContext, _ sandbox: SandboxServer, _ tour: Narrator)
    async throws
  {
    // 12. Optimistic update reverted
    tour.step(12, "TodosViewModel: optimistic toggle, reverted when the server refuses")
    let todos = TodosViewModel(repo: try app.resolve())
    await todos.load(limit: 3)
    guard let todo = todos.rows.first?.item else { throw tour.failure("no todos") }
    sandbox.faults.add(
      .init(method: "PUT", path: "/todos/\(todo.id)", action: .delay(.milliseconds(300))))
    sandbox.faults.add(
      .init(method: "PUT", path: "/todos/\(todo.id)", action: .respond(status: 500)))
    let toggle = Task { try await todos.toggle(.server(todo.id)) }
    try await Task.sleep(for: .milliseconds(100))
    let shown = todos.rows.first?.item.completed ?? todo.completed
    var outcome = "kept"
    do { _ = try await toggle.value } catch {
      let failure = LoadState.Failure(error, context: "Could not update todo \(todo.id)")
      outcome = "reverted to \(done(todos.rows.first?.item.completed ?? false)): \(failure.message)"
    }
    tour.say(
      "todo \(todo.id) \"\(todo.todo)\": was \(done(todo.completed)), shown \(done(shown)) at once")
    tour.say("the server answered 500 → \(outcome)")
    tour.evidence()
  }

  /// Step 13: a read revalidated with a 304, then answered from the cache with the server away.
  private static func httpCache(_ app: AppContext, _ sandbox: SandboxServer, _ tour: Narrator)
    async throws
  {
    tour.step(13, "NetworkService's HTTP cache: a 304, then the server away")
    let network = try app.resolve((any Networking).self)
    let request = Request<User>(path: "users/2")
    _ = try await network.send(request)
    let again = try await network.send(request)
    tour.say(
      "read twice: the second sent the first answer's ETag and got 304 Not Modified (\(again.source.label), no body)"
    )
    tour.evidence()
    sandbox.faults.add(.init(method: "GET", path: "/users/2", count: 10, action: .dropConnection))
    let away = try await network.send(request)
    guard case .stale(let age) = away.source else {
      throw tour.failure("the server away, the read was \(away.source.label)")
    }
    tour.say(
      "the server away (every attempt's connection dropped): \(away.value.fullName) shown from the cache, \(age)s old"
    )
    tour.evidence()
    sandbox.faults.reset()
  }

  static func done(_ completed: Bool) -> String { completed ? "done" : "not done" }
}

/// Shows each event the domain reports as `name key=value …`, keys in order.
struct TourAnalytics: Analytics {
  let show: @Sendable (String) -> Void

  func track(_ event: String, _ properties: [String: AnalyticsValue]) {
    let shown = properties.sorted { $0.key < $1.key }.map { key, value in
      switch value {
      case .count(let number): "\(key)=\(number)"
      case .flag(let flag): "\(key)=\(flag)"
      case .label(let label): "\(key)=\(label.rawValue)"
      }
    }
    show(([event] + shown).joined(separator: " "))
  }
}

/// Prints the tour: numbered steps, indented lines, and the requests each step really sent.
@MainActor
final class Narrator {
  private let journal: RequestJournal
  private var seen = 0

  init(journal: RequestJournal) {
    self.journal = journal
    seen = journal.count()
  }

  func step(_ number: Int, _ title: String) {
    Terminal.out("")
    Terminal.out("[\(number)/\(TourCommand.steps)] \(title)")
  }

  func say(_ text: String) {
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      Terminal.out("    " + line)
    }
  }

  /// The requests the sandbox received since the last call.
  func evidence() {
    let entries = journal.entries
    let new = entries.dropFirst(seen)
    seen = entries.count
    let summary =
      new.isEmpty
      ? "none — nothing was sent" : new.map { "\($0.method) \($0.path)" }.joined(separator: ", ")
    Terminal.out("    sandbox saw: \(summary)")
  }

  func failure(_ message: String) -> any Error {
    CommandFailure("tour: \(message)")
  }
}
