import DemoKit
import Foundation
import Strata

/// `posts`, `post create`, `post edit ID`, `post delete ID`, `post comments ID`: posts and their
/// comments, through view models. An ID is the server's number or the local id a post made
/// offline was given.
@MainActor
enum PostCommands {
  nonisolated static let commands = [
    CommandTable.deviceList("posts", limit: 3, run: .inApp(posts)),
    Command(
      "post create",
      options: [
        OptionSpec(name: "title", valueName: "TEXT", help: "option.title.asked"),
        OptionSpec(name: "body", valueName: "TEXT", help: "option.body.asked"),
        OptionSpec(name: "user-id", valueName: "N", help: "option.author"),
        CommandTable.offline("keep"),
      ], example: "strata-demo post create --title Hello --body World --user-id 1",
      run: .inApp(create)),
    Command(
      "post edit", positionals: ["ID"],
      options: [
        OptionSpec(name: "title", valueName: "TEXT", help: "option.title.new"),
        OptionSpec(name: "body", valueName: "TEXT", help: "option.text.new"),
        CommandTable.offline("keepChange"),
      ], example: "strata-demo post edit 1 --title 'New title'", run: .inApp(edit)),
    Command(
      "post delete", positionals: ["ID"], options: [CommandTable.offline("keepDeletion")],
      example: "strata-demo post delete 1", run: .inApp(delete)),
    Command(
      "post comments", positionals: ["ID"],
      example: "strata-demo post comments 1", feature: .comments, run: .inApp(comments)),
  ]

  static func posts(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    if invocation.option("local") != nil {
      guard try app.resolve(FeatureFlags.self).isOn(.offline) else { throw FeatureOff(.offline) }
      return try await local(app, invocation)
    }
    let model = try app.resolve(PostsViewModel.self)
    let (limit, skip) = try await app.paging(invocation)
    await model.load(limit: limit, skip: skip)
    return try Output.page(
      model.page, failure: model.state.failure?.error,
      headers: Headings.of("id", "user", "likes", "title")
    ) { [String($0.id), String($0.userId), String($0.reactions?.likes ?? 0), $0.title] }
  }

  /// `post create`: with `--title` and `--body`, one call to
  /// ``PostsViewModel/create(_:keepOffline:)``, which decides whether the post is sent or kept
  /// on this device; without them, in a terminal, the new-post flow asks step by step and
  /// ends in the same call.
  static func create(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let posts = try app.resolve(PostsViewModel.self)
    let userId = try invocation.integer("user-id", default: 1, in: 1...1_000_000)
    let keepOffline = try await app.keepsOffline(invocation)
    let post: OfflinePosts.Item
    if let title = invocation.option("title"), let body = invocation.option("body") {
      post = try await posts.create(
        PostDraft(title: title, body: body, userId: userId), keepOffline: keepOffline)
    } else {
      guard Terminal.inputIsTerminal else {
        throw UsageError(Localized.current("post.notTerminal"), invocation.command)
      }
      let flow = NewPostFlow(posts: posts, userId: userId, keepOffline: keepOffline)
      if let title = invocation.option("title") { flow.fields.title = title }
      if let body = invocation.option("body") { flow.fields.body = body }
      let dialog = NewPostDialog(ask: Terminal.prompt, tell: Terminal.error)
      guard try await dialog.run(flow), let created = flow.created else {
        return Output(text: .line(Localized.current("post.notCreated")), json: nil)
      }
      post = created
    }
    guard post.status == .synced else {
      let owner = try await owner(app)
      return Output(
        text: .line(
          Localized.current(
            "post.kept",
            [
              "owner": Localized.current.owner(owner), "title": post.item.title,
              "id": post.localId ?? "-",
            ])),
        json: DeviceList.Row(name: .post, entry: post, account: owner.jsonAccount))
    }
    return Output(
      text: .detail([
        (Headings.label("createdPost"), "#\(post.item.id)"),
        (Headings.label("title"), post.item.title), (Headings.label("body"), post.item.body),
        (Headings.label("user"), String(post.item.userId)),
      ]), json: post.item)
  }

  /// `post edit ID`: one call to ``PostsViewModel/edit(_:_:keepOffline:)``.
  static func edit(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let id = try invocation.itemID()
    let edit = PostEdit(title: invocation.option("title"), body: invocation.option("body"))
    let post = try await app.resolve(PostsViewModel.self).edit(
      id, edit, keepOffline: try await app.keepsOffline(invocation))
    guard post.status == .synced else {
      return try DeviceList.kept(
        post, Localized.current("thing.post", ["id": "\(id)"]), name: .post,
        owner: try await owner(app))
    }
    return Output(
      text: .detail([
        (Headings.label("editedPost"), "#\(post.item.id)"),
        (Headings.label("title"), post.item.title), (Headings.label("body"), post.item.body),
      ]), json: post.item)
  }

  /// `post delete ID`: one call to ``PostsViewModel/delete(_:keepOffline:)``.
  static func delete(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let id = try invocation.itemID()
    let deletion = try await app.resolve(PostsViewModel.self).delete(
      id, keepOffline: try await app.keepsOffline(invocation))
    return try DeviceList.deletion(
      deletion, Localized.current("thing.post", ["id": "\(id)"]), name: .post,
      owner: try await owner(app))
  }

  private static func owner(_ app: AppContext) async throws -> DataOwner {
    try await app.resolve(OfflinePosts?.self)?.collection.currentOwner() ?? .device
  }

  static func comments(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let model = try app.resolve(PostDetailViewModel.self)
    await model.load(id: try invocation.identifier())
    if let failure = model.state.failure { throw failure.error }
    guard let post = model.post else { throw CommandFailure(Localized.current("error.noPost")) }
    return Output(
      text: .line(
        Output.detail([
          (Headings.label("post"), "#\(post.id) \(post.title)"),
          (Headings.label("user"), String(post.userId)),
        ]) + "\n\n"
          + Output.table(
            Headings.of("id", "user", "likes", "comment"),
            model.comments.map {
              [String($0.id), $0.user.username, String($0.likes), $0.body]
            }) + "\n" + Localized.current.plural("post.comments", count: model.comments.count)),
      json: PostWithComments(post: post, comments: model.comments))
  }

  struct PostWithComments: Encodable {
    let post: Post
    let comments: [PostComment]
  }

  /// What `--where` and `--sort` can name of a post kept on the device.
  nonisolated static let fields: [QueryField<Post>] = [
    .number("id") { $0.id }, .number("userId") { $0.userId }, .string("title") { $0.title },
    .number("views") { $0.views ?? 0 }, .number("likes") { $0.reactions?.likes ?? 0 },
  ]

  static func local(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    try await DeviceList.output(
      try app.resolve(OfflinePosts.self).collection, name: .post,
      headers: Headings.of("id", "localId", "status", "title", "note"), invocation: invocation,
      fields: fields
    ) {
      [
        $0.item.id == 0 ? "-" : String($0.item.id), $0.localId ?? "-", Headings.status($0),
        $0.item.title, $0.message ?? "",
      ]
    }
  }
}
