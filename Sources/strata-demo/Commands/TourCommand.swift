import DemoKit
import Foundation
import Strata
import StrataSandbox

/// `tour`: every layer, live, on the embedded sandbox, each step saying what the layer did.
/// The sandbox's journal is the evidence: requests, attempts and refreshes are counted, not
/// claimed. Uses an in-memory session so it never touches a real one.
@MainActor
enum TourCommand {
  nonisolated static let steps = 15

  nonisolated static let commands = [
    Command(
      "tour", example: "strata-demo tour", printsJSON: false, run: .standalone(run))
  ]

  /// What the tour sets over the defaults, so each step shows in a moment and touches no real
  /// session: said at its first step.
  nonisolated static let tightened: [Config.Key: String] = [
    .api: "sandbox", .tokenStore: "memory", .tokenLifetime: "30m", .retryBaseDelay: "50ms",
    .retryMaxDelay: "400ms", .usersCacheTTL: "60s",
  ]

  static func run(_ invocation: Invocation) async throws -> Output {
    // The tour is about the embedded sandbox: another API is refused, never ignored.
    if let api = invocation.api, api != "sandbox" {
      throw UsageError(
        Localized.current("usage.tourSandboxOnly", ["got": Invocation.quoted(api)]),
        nil)
    }
    let started = ContinuousClock.now
    // The tour's own changes, apart from the user's store and gone when it ends; in the app's
    // cache directory (owner-only), never in a temporary directory every local user shares.
    let storeDirectory = AppDirectories(app: "strata-demo").cache + "/tour-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: storeDirectory) }
    let app = try await AppContext.start(
      invocation,
      overrides: tightened.merging([.storeDirectory: storeDirectory]) { $1 })
    do {
      try await narrate(app, invocation, started: started, files: storeDirectory)
    } catch {
      await app.shutdown()
      throw error
    }
    await app.shutdown()
    return .none
  }

  private static func narrate(
    _ app: AppContext, _ invocation: Invocation, started: ContinuousClock.Instant, files: String
  ) async throws {
    guard let sandbox = app.sandbox else {
      throw UsageError(text("tour.needsSandbox"), invocation.command)
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
    try await liveEvents(app, sandbox, tour, files: files)

    // 15. Logout
    tour.step(15, text("tour.step15"))
    await profile.signOut()
    await profile.load()
    tour.say(text("tour.signedOut", ["message": profile.state.message ?? "?"]))
    tour.evidence()

    let elapsed = ContinuousClock.now - started
    Terminal.out("")
    Terminal.out(
      text(
        "tour.complete",
        [
          "elapsed": Output.duration(elapsed), "requests": String(journal.count()),
          "refreshes": String(journal.count(method: "POST", path: "/auth/refresh")),
        ]))
  }

  /// Steps 1–2: what was read and wired, and the environment's defaults.
  private static func introduce(_ app: AppContext, _ sandbox: SandboxServer, _ tour: Narrator)
    throws
  {
    // 1. Config, Log, DI
    tour.step(1, text("tour.step1"))
    tour.say(
      text(
        "tour.read",
        [
          "file": app.configFile ?? text("tour.builtInDefaults"),
          "count": String(app.config.entries.count),
        ]))
    let retry = try app.resolve(NetworkOptions.self).retryPolicy
    let set = tightened.keys.map(\.name).sorted().map {
      "\($0) = \(tightened[Config.Key($0)] ?? "")"
    }
    tour.say(text("tour.tightened", ["keys": set.joined(separator: ", ")]))
    tour.say(text("tour.api", ["url": sandbox.baseURL.absoluteString]))
    tour.say(
      text(
        "tour.retryPolicy",
        [
          "retries": String(retry.maxRetries), "base": Output.duration(retry.baseDelay),
          "max": Output.duration(retry.maxDelay),
        ]))
    tour.say(
      text("tour.validate", ["count": String(app.container.registeredServices.count)]))

    // 2. The environment
    let environment = try app.resolve(AppEnvironment.self)
    tour.step(2, text("tour.step2", ["environment": "\(environment)"]))
    tour.say(text("tour.environment", ["environment": "\(environment)"]))
    let chosen = environment.defaults.keys.filter { app.config.value($0)?.origin == .defaults }
    let defaults = chosen.map(\.name).sorted().map {
      "\($0) = \(app.config.value(Config.Key($0))?.displayValue ?? "")"
    }
    tour.say(text("tour.defaults", ["list": defaults.joined(separator: ", ")]))
    tour.evidence()
  }

  /// Steps 3–5: validation, sign-in, an authenticated request, a transparent refresh.
  private static func signIn(_ app: AppContext, _ tour: Narrator) async throws -> (
    ProfileViewModel, Int
  ) {
    // 3. Login
    tour.step(3, text("tour.step3"))
    let login = try app.resolve(LoginViewModel.self)
    await login.login()
    tour.say(text("tour.emptyForm", ["message": login.validationMessage ?? "-"]))
    login.username = SandboxServer.demoAccount.username
    login.password = SandboxServer.demoAccount.password
    guard await login.login(), let user = login.user else {
      throw tour.failure(text("tour.loginFailed", ["message": login.state.message ?? "?"]))
    }
    tour.say(
      text(
        "tour.signedIn",
        ["name": "\(user.firstName) \(user.lastName)", "username": user.username]))
    tour.evidence()

    // 4. Me
    tour.step(4, text("tour.step4"))
    let profile = try app.resolve(ProfileViewModel.self)
    await profile.load()
    guard let me = profile.user else {
      throw tour.failure(profile.state.message ?? text("error.noUser"))
    }
    tour.say(text("tour.me", ["name": me.fullName, "email": me.email ?? ""]))
    tour.evidence()

    // 5. Expiry and refresh
    tour.step(5, text("tour.step5"))
    app.sandboxClock.advance(by: 2 * 3600)
    tour.say(text("tour.clockJumps"))
    await profile.load()
    guard let refreshed = profile.user else {
      throw tour.failure(profile.state.message ?? text("error.noUser"))
    }
    tour.say(text("tour.refreshed", ["name": refreshed.firstName]))
    tour.evidence()
    return (profile, me.id)
  }

  /// Steps 6–8: a page and the cache, a GET retried with backoff, a post with its comments.
  private static func read(_ app: AppContext, _ sandbox: SandboxServer, _ tour: Narrator)
    async throws
  {
    // 6. Users and the cache
    tour.step(6, text("tour.step6"))
    let users = UsersViewModel(repo: try app.resolve(), pageSize: 5)
    await users.send(.load)
    tour.say(
      Output.table(
        Headings.of("id", "name", "email"),
        users.output.users.map { [String($0.id), $0.fullName, $0.email ?? ""] }))
    tour.evidence()
    await users.send(.load)
    tour.say(text("tour.cached", ["count": String(users.output.users.count)]))
    tour.evidence()
    await users.send(.loadMore)
    tour.say(
      text(
        "tour.loadMore",
        [
          "first": String(users.output.users.dropFirst(5).first?.id ?? 0),
          "last": String(users.output.users.last?.id ?? 0), "total": String(users.output.total),
        ]))
    tour.evidence()

    // 7. Retry with backoff
    tour.step(7, text("tour.step7"))
    sandbox.faults.fail(503, method: "GET", path: "/posts", count: 2)
    let posts = try app.resolve((any PostsRepository).self)
    let page = try await posts.list(limit: 3, skip: 0)
    tour.say(
      text(
        "tour.thirdAttempt",
        [
          "count": String(page.items.count),
          "title": Output.clip(page.items.first?.title ?? "", 40),
        ]))
    tour.evidence()

    // 8. A post with its comments
    tour.step(8, text("tour.step8"))
    let detail = try app.resolve(PostDetailViewModel.self)
    await detail.load(id: page.items.first?.id ?? 1)
    guard let shownPost = detail.post else {
      throw tour.failure(detail.state.message ?? text("error.noPost"))
    }
    tour.say(
      text("tour.post", ["id": String(shownPost.id), "title": Output.clip(shownPost.title, 40)]))
    tour.say(
      Output.table(
        Headings.of("user", "likes", "comment"),
        detail.comments.map { [$0.user.username, String($0.likes), $0.body] }))
    tour.evidence()
  }

  /// Step 12: an optimistic toggle, reverted when the server refuses.
  private static func toggleTodo(_ app: AppContext, _ sandbox: SandboxServer, _ tour: Narrator)
    async throws
  {
    // 12. Optimistic update reverted
    tour.step(12, text("tour.step12"))
    let todos = TodosViewModel(repo: try app.resolve())
    await todos.load(limit: 3)
    guard let todo = todos.rows.first?.item else { throw tour.failure(text("tour.noTodos")) }
    sandbox.faults.add(
      .init(method: "PUT", path: "/todos/\(todo.id)", action: .delay(.milliseconds(300))))
    sandbox.faults.add(
      .init(method: "PUT", path: "/todos/\(todo.id)", count: 4, action: .respond(status: 500)))
    let toggle = Task { try await todos.toggle(.server(todo.id)) }
    try await Task.sleep(for: .milliseconds(100))
    let shown = todos.rows.first?.item.completed ?? todo.completed
    var outcome = text("tour.kept")
    do { _ = try await toggle.value } catch {
      let failure = LoadState.Failure(
        error, context: text("failure.updateTodo", ["id": String(todo.id)]))
      outcome = text(
        "tour.reverted",
        ["state": done(todos.rows.first?.item.completed ?? false), "message": failure.message])
    }
    tour.say(
      text(
        "tour.toggled",
        [
          "id": String(todo.id), "todo": todo.todo, "was": done(todo.completed),
          "shown": done(shown),
        ]))
    tour.say(text("tour.answered500", ["outcome": outcome]))
    tour.evidence()
  }

  /// Step 13: a read revalidated with a 304, then answered from the cache with the server away.
  private static func httpCache(_ app: AppContext, _ sandbox: SandboxServer, _ tour: Narrator)
    async throws
  {
    tour.step(13, text("tour.step13"))
    let network = try app.resolve((any Networking).self)
    let request = Request<User>(path: "users/2")
    _ = try await network.send(request)
    let again = try await network.send(request)
    tour.say(text("tour.revalidated", ["source": again.source.label]))
    tour.evidence()
    sandbox.faults.add(.init(method: "GET", path: "/users/2", count: 10, action: .dropConnection))
    let away = try await network.send(request)
    guard case .stale(let age) = away.source else {
      throw tour.failure(text("tour.notStale", ["source": away.source.label]))
    }
    tour.say(text("tour.stale", ["name": away.value.fullName, "age": text.age(age)]))
    tour.evidence()
    sandbox.faults.reset()
    let avatars = try app.resolve((any AvatarRepository).self)
    let first = try await avatars.avatar(of: away.value, progress: nil)
    let second = try await avatars.avatar(of: away.value, progress: nil)
    guard case .cache = second.source, first.value == second.value else {
      throw tour.failure(text("tour.avatarNotKept"))
    }
    tour.say(
      text(
        "tour.avatar",
        [
          "name": away.value.firstName, "bytes": String(first.value.count),
          "path": away.value.image.flatMap { URL(string: $0)?.path } ?? "",
        ]))
    tour.evidence()
  }

  static func done(_ completed: Bool) -> String { text(completed ? "done" : "notDone") }

  /// The tour's sentences, in the user's language.
  nonisolated static let text = Localized.current
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
    let text = TourCommand.text
    let summary =
      new.isEmpty
      ? text("tour.nothingSent") : new.map { "\($0.method) \($0.path)" }.joined(separator: ", ")
    Terminal.out("    " + text("tour.saw", ["requests": summary]))
  }

  func failure(_ message: String) -> any Error {
    CommandFailure(TourCommand.text("tour.failure", ["reason": message]))
  }
}
