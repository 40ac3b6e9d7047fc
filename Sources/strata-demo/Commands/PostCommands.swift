import DemoKit
import Foundation
import Strata

/// `posts`, `post create`, `post comments ID`: posts and their comments, through view models.
@MainActor
enum PostCommands {
  nonisolated static let commands = [
    Command(
      "posts", summary: "List posts (--local: those kept on this device, with their status).",
      options: CommandTable.paging + [
        OptionSpec(name: "local", valueName: nil, help: "list the device's posts, no request")
      ],
      example: "strata-demo posts --limit 3", run: .inApp(posts)),
    Command(
      "post create",
      summary:
        "Create a post (a POST: sent once, never retried); asks step by step in a terminal.",
      options: [
        OptionSpec(name: "title", valueName: "TEXT", help: "title (asked in a terminal)"),
        OptionSpec(name: "body", valueName: "TEXT", help: "text (asked in a terminal)"),
        OptionSpec(name: "user-id", valueName: "N", help: "author (default 1)"),
        OptionSpec(
          name: "offline", valueName: nil,
          help: "keep it on this device as pending; 'sync' sends it (also when there is no route)"),
      ], example: "strata-demo post create --title Hello --body World --user-id 1",
      run: .inApp(create)),
    Command(
      "post comments", summary: "Show a post with its comments.", positionals: ["ID"],
      example: "strata-demo post comments 1", feature: .comments, run: .inApp(comments)),
  ]

  static func posts(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    if invocation.option("local") != nil {
      guard try app.resolve(FeatureFlags.self).isOn(.offline) else { throw FeatureOff(.offline) }
      return try await local(app)
    }
    let model = try app.resolve(PostsViewModel.self)
    let (limit, skip) = try invocation.paging()
    await model.load(limit: limit, skip: skip)
    return try Output.page(
      model.page, failure: model.state.failure?.error, headers: ["ID", "USER", "LIKES", "TITLE"]
    ) { [String($0.id), String($0.userId), String($0.reactions?.likes ?? 0), $0.title] }
  }

  /// The "new post" flow: with `--title` and `--body` it runs without a question; without
  /// them, in a terminal, it asks step by step (title, body, review, confirm).
  static func create(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let flow = NewPostFlow(
      posts: try app.resolve(PostsViewModel.self),
      userId: try invocation.integer("user-id", default: 1, in: 1...1_000_000))
    if let title = invocation.option("title") { flow.title = title }
    if let body = invocation.option("body") { flow.body = body }
    let features = try app.resolve(FeatureFlags.self)
    if invocation.option("offline") != nil, !features.isOn(.offline) { throw FeatureOff(.offline) }
    let online = try app.resolve(Connectivity.self).isOnline
    if features.isOn(.offline), invocation.option("offline") != nil || !online {
      return try await queue(flow, app, invocation)
    }
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
    if let failure = model.state.failure { throw failure.error }
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

  /// Keeps the post on this device as pending (checked by the same flow).
  static func queue(_ flow: NewPostFlow, _ app: AppContext, _ invocation: Invocation)
    async throws -> Output
  {
    guard invocation.option("title") != nil, invocation.option("body") != nil else {
      throw UsageError("an offline post needs --title and --body", invocation.command)
    }
    if let invalid = flow.validationError() { throw invalid }
    let item = try await app.resolve(OfflinePosts.self).create(flow.draft, offline: true)
    return Output(
      text: .line(
        "kept on this device, pending: \"\(item.item.title)\" — 'strata-demo sync' sends it"),
      json: LocalRow(item))
  }

  static func local(_ app: AppContext) async throws -> Output {
    let items = try await app.resolve(OfflinePosts.self).local()
    return Output(
      text: .table(
        headers: ["ID", "STATUS", "TITLE", "NOTE"],
        rows: items.map {
          [
            $0.item.id == 0 ? "-" : String($0.item.id), $0.status.rawValue, $0.item.title,
            $0.message ?? "",
          ]
        }, footer: "\(items.count) on this device"),
      json: items.map(LocalRow.init))
  }

  /// A device post in JSON.
  struct LocalRow: Encodable {
    let post: Post
    let status: String
    let message: String?
    init(_ item: OfflinePosts.Item) {
      post = item.item
      status = item.status.rawValue
      message = item.message
    }
  }
}
