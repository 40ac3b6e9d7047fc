import DemoKit
import Strata

/// `user posts ID`: the posts one user wrote, through their view model.
@MainActor
enum UserPostsCommands {
  nonisolated static let commands = [
    Command(
      "user posts", positionals: ["ID"],
      options: CommandTable.paging, example: "strata-demo user posts 5 --limit 3",
      run: .inApp(posts))
  ]

  static func posts(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let model = try app.resolve(UserPostsViewModel.self)
    let (limit, skip) = try await app.paging(invocation)
    await model.load(userId: try invocation.identifier(), limit: limit, skip: skip)
    return try Output.page(
      model.page, failure: model.state.failure?.error, headers: Headings.of("id", "likes", "title")
    ) { [String($0.id), String($0.reactions?.likes ?? 0), $0.title] }
  }
}
