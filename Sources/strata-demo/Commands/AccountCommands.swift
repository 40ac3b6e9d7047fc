import DemoKit
import Strata

/// `login`, `logout`, `me`: the account feature, through its view models.
@MainActor
enum AccountCommands {
  nonisolated static let commands = [
    Command(
      "login", summary: "Sign in; the session is kept (0600) for the next commands.",
      options: [
        OptionSpec(
          name: "username", valueName: "NAME", help: "login name (prompted in a terminal)"),
        OptionSpec(
          name: "password", valueName: "PASSWORD",
          help: "password (prompted without echo in a terminal)"),
      ],
      example:
        "strata-demo --api http://127.0.0.1:8080 login --username emilys --password emilyspass",
      run: .inApp(login)),
    Command(
      "logout", summary: "Forget the stored session.", example: "strata-demo logout",
      run: .inApp(logout)),
    Command(
      "me", summary: "Show the signed-in user (refreshing the token if needed).",
      example: "strata-demo me", run: .inApp(me)),
  ]

  static func login(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    var username = invocation.option("username")
    var password = invocation.option("password")
    KnownSecrets.register([password])
    if username == nil || password == nil {
      guard Terminal.inputIsTerminal else {
        throw UsageError(
          "login needs --username and --password when input is not a terminal", invocation.command)
      }
      if username == nil { username = Terminal.prompt("username: ") }
      if password == nil {
        password = Terminal.promptSecret("password: ")
        KnownSecrets.register([password])
      }
    }
    let model = try app.resolve(LoginViewModel.self)
    model.username = username ?? ""
    model.password = password ?? ""
    guard await model.login(), let user = model.user else {
      if let message = model.validationMessage { throw UsageError(message, invocation.command) }
      throw CommandFailure(model.error ?? "login failed")
    }
    return Output(
      text: .line("signed in as \(user.firstName) \(user.lastName) (@\(user.username))"),
      json: user)
  }

  static func logout(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let model = try app.resolve(ProfileViewModel.self)
    await model.signOut()
    return Output(text: .line("signed out"), json: ["signedIn": false])
  }

  static func me(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let model = try app.resolve(ProfileViewModel.self)
    await model.load()
    if let failure = model.failure { throw failure }
    guard let user = model.user else { throw CommandFailure("no user") }
    return UserCommands.detail(user)
  }
}
