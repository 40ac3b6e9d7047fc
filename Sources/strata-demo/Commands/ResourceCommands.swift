import DemoKit
import Strata

/// `users`, `user ID`, `posts`, `post create`, `todos`, `todo toggle ID`.
@MainActor
enum ResourceCommands {
  static func users(_ app: AppContext, _ invocation: Invocation) async throws {
    let limit = try invocation.integer("limit", default: 10, in: 1...1000)
    let skip = try invocation.integer("skip", default: 0)
    let repo = try app.resolve((any UsersRepository).self)
    let page =
      if let query = invocation.option("search") {
        try await repo.search(query, limit: limit, skip: skip)
      } else {
        try await repo.page(limit: limit, skip: skip)
      }
    if invocation.json { return Terminal.out(try TableRenderer.json(page)) }
    Terminal.out(
      TableRenderer.table(
        ["ID", "NAME", "AGE", "USERNAME", "EMAIL"],
        page.items.map {
          [
            String($0.id), $0.fullName, $0.age.map(String.init) ?? "", $0.username ?? "",
            $0.email ?? "",
          ]
        }))
    Terminal.out(footer(page))
  }

  static func user(_ app: AppContext, _ invocation: Invocation) async throws {
    let user = try await app.resolve((any UsersRepository).self).user(
      id: try invocation.identifier())
    Terminal.out(invocation.json ? try TableRenderer.json(user) : UserDetail.render(user))
  }

  static func posts(_ app: AppContext, _ invocation: Invocation) async throws {
    let page = try await app.resolve((any PostsRepository).self).list(
      limit: try invocation.integer("limit", default: 10, in: 1...1000),
      skip: try invocation.integer("skip", default: 0))
    if invocation.json { return Terminal.out(try TableRenderer.json(page)) }
    Terminal.out(
      TableRenderer.table(
        ["ID", "USER", "LIKES", "TITLE"],
        page.items.map {
          [String($0.id), String($0.userId), String($0.reactions?.likes ?? 0), $0.title]
        }))
    Terminal.out(footer(page))
  }

  static func createPost(_ app: AppContext, _ invocation: Invocation) async throws {
    guard let title = invocation.option("title"), let body = invocation.option("body"),
      invocation.option("user-id") != nil
    else { throw UsageError("post create needs --title, --body and --user-id", invocation.command) }
    let userID = try invocation.integer("user-id", default: 0, in: 1...1_000_000)
    let post = try await app.resolve((any PostsRepository).self).create(
      title: title, body: body, userId: userID)
    if invocation.json { return Terminal.out(try TableRenderer.json(post)) }
    Terminal.out(
      TableRenderer.detail([
        ("Created post", "#\(post.id)"), ("Title", post.title), ("Body", post.body),
        ("User", String(post.userId)),
      ]))
  }

  static func todos(_ app: AppContext, _ invocation: Invocation) async throws {
    let page = try await app.resolve((any TodosRepository).self).list(
      limit: try invocation.integer("limit", default: 10, in: 1...1000),
      skip: try invocation.integer("skip", default: 0))
    if invocation.json { return Terminal.out(try TableRenderer.json(page)) }
    Terminal.out(
      TableRenderer.table(
        ["ID", "DONE", "USER", "TODO"],
        page.items.map { [String($0.id), $0.completed ? "yes" : "no", String($0.userId), $0.todo] })
    )
    Terminal.out(footer(page))
  }

  static func toggleTodo(_ app: AppContext, _ invocation: Invocation) async throws {
    let id = try invocation.identifier()
    let repo = try app.resolve((any TodosRepository).self)
    let current = try await repo.todo(id: id)
    let updated = try await repo.setCompleted(id: id, !current.completed)
    if invocation.json { return Terminal.out(try TableRenderer.json(updated)) }
    Terminal.out("todo \(id) is now \(updated.completed ? "done" : "not done"): \(updated.todo)")
  }

  static func footer<Item>(_ page: Page<Item>) -> String {
    guard !page.items.isEmpty else { return "(none of \(page.total))" }
    return "showing \(page.skip + 1)–\(page.skip + page.items.count) of \(page.total)"
  }
}
