import DemoKit
import Strata

/// `users`, `user ID`: the users feature, through its view models.
@MainActor
enum UserCommands {
  nonisolated static let commands = [
    Command(
      "users",
      options: CommandTable.paging + [
        OptionSpec(name: "search", valueName: "TEXT")
      ],
      example: "strata-demo users --limit 5 --skip 5", run: .inApp(users)),
    Command(
      "user", positionals: ["ID"], example: "strata-demo user 1",
      run: .inApp(user)),
  ]

  static func users(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let (limit, skip) = try await app.paging(invocation)
    let model = try app.container.resolve(UsersViewModel.self, argument: limit)
    if let query = invocation.option("search") {
      await model.send(.search(query, skip: skip))
    } else {
      await model.send(.loadFrom(skip: skip))
    }
    let page = Page(
      items: model.output.users, total: model.output.total, skip: skip, limit: limit)
    return try Output.page(
      page, failure: model.output.state.failure?.error,
      headers: Headings.of("id", "name", "age", "username", "email")
    ) {
      [
        String($0.id), $0.fullName, $0.age.map(String.init) ?? "", $0.username ?? "",
        $0.email ?? "",
      ]
    }
  }

  static func user(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let model = try app.resolve(UserViewModel.self)
    await model.load(id: try invocation.identifier())
    if let failure = model.state.failure { throw failure.error }
    guard let user = model.user else { throw CommandFailure(Localized.current("error.noUser")) }
    return detail(user)
  }

  /// One user as a detail view (also `me`).
  static func detail(_ user: User) -> Output {
    Output(
      text: .detail([
        (Headings.label("id"), String(user.id)), (Headings.label("name"), user.fullName),
        (Headings.label("username"), user.username), (Headings.label("email"), user.email),
        (Headings.label("age"), user.age.map(String.init)),
        (Headings.label("phone"), user.phone),
        (
          Headings.label("address"),
          user.address.map { "\($0.address), \($0.city), \($0.state) \($0.postalCode)" }
        ),
        (
          Headings.label("company"),
          user.company.map { "\($0.title), \($0.department) — \($0.name)" }
        ),
        (Headings.label("role"), user.role),
      ]), json: user)
  }
}
