import DemoKit
import Strata

/// `posts`, `post create`, `post comments ID`: posts and their comments, through view models.
@MainActor
enum PostCommands {
  nonisolated static let commands = [
    Command(
      "posts", summary: "List posts.", options: CommandTable.paging,
      example: "strata-demo posts --limit 3", run: .inApp(posts)),
    Command(
      "post create",
      summary:
        "Create a post (a POST: sent once, never retried); asks step by step in a terminal.",
      options: [
        OptionSpec(name: "title", valueName: "TEXT", help: "title (asked in a terminal)"),
        OptionSpec(name: "body", valueName: "TEXT", help: "text (asked in a terminal)"),
        OptionSpec(name: "user-id", valueName: "N", help: "author (default 1)"),
      ], example: "strata-demo post create --title Hello --body World --user-id 1",
      run: .inApp(create)),
    Command(
      "post comments", summary: "Show a post with its comments.", positionals: ["ID"],
      example: "strata-demo post comments 1", run: .inApp(comments)),
  ]

  static func posts(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let model = try app.resolve(PostsViewModel.self)
    await model.load(
      limit: try invocation.integer("limit", default: 10, in: 1...1000),
      skip: try invocation.integer("skip", default: 0))
    if let failure = model.failure { throw failure }
    guard let page = model.page else { throw CommandFailure("no posts") }
    return Output(
      text: .table(
        headers: ["ID", "USER", "LIKES", "TITLE"],
        rows: page.items.map {
          [String($0.id), String($0.userId), String($0.reactions?.likes ?? 0), $0.title]
        }, footer: Output.footer(page)),
      json: page)
  }

  /// The "new post" flow: with `--title` and `--body` it runs without a question; without
  /// them, in a terminal, it asks step by step (title, body, review, confirm).
  static func create(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let flow = NewPostFlow(
      posts: try app.resolve(PostsViewModel.self),
      userId: try invocation.integer("user-id", default: 1, in: 1...1_000_000))
    if let title = invocation.option("title") { flow.title = title }
    if let body = invocation.option("body") { flow.body = body }
    if invocation.option("title") != nil, invocation.option("body") != nil {
      try await NewPostDialog.runWithoutQuestions(flow, command: invocation.command)
    } else {
      guard Terminal.inputIsTerminal else {
        throw UsageError(
          "post create needs --title and --body when input is not a terminal", invocation.command)
      }
      let dialog = NewPostDialog(ask: Terminal.prompt, tell: Terminal.error)
      guard try await dialog.run(flow) else { return Output(text: .line("not created"), json: nil) }
    }
    guard let post = flow.created else { throw CommandFailure("the post was not created") }
    return Output(
      text: .detail([
        ("Created post", "#\(post.id)"), ("Title", post.title), ("Body", post.body),
        ("User", String(post.userId)),
      ]), json: post)
  }

  static func comments(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let model = try app.resolve(PostDetailViewModel.self)
    await model.load(id: try invocation.identifier())
    if let failure = model.failure { throw failure }
    guard let post = model.post else { throw CommandFailure("no post") }
    return Output(
      text: .line(
        Output.detail([("Post", "#\(post.id) \(post.title)"), ("User", String(post.userId))])
          + "\n\n"
          + Output.table(
            ["ID", "USER", "LIKES", "COMMENT"],
            model.comments.map {
              [String($0.id), $0.user.username, String($0.likes), $0.body]
            }) + "\n\(model.comments.count) comment\(model.comments.count == 1 ? "" : "s")"),
      json: PostWithComments(post: post, comments: model.comments))
  }

  struct PostWithComments: Encodable {
    let post: Post
    let comments: [PostComment]
  }
}
