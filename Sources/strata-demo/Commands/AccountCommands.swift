import DemoKit
import Foundation
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
          help:
            "password (prompted without echo in a terminal); other users can read it with 'ps'"),
        OptionSpec(
          name: "password-stdin", valueName: nil,
          help: "read the password from the first line of stdin (printf '%s' \"$PW\" | …)"),
      ],
      example:
        "printf '%s' emilyspass | strata-demo --api http://127.0.0.1:8080 login --username emilys --password-stdin",
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
    if invocation.option("password-stdin") != nil {
      guard password == nil else {
        throw UsageError("--password and --password-stdin exclude each other", invocation.command)
      }
      guard username != nil else {
        throw UsageError("--password-stdin needs --username", invocation.command)
      }
      password = try Terminal.readSecretLine(limit: 4096)
    }
    if let password { KnownSecrets.register(password) }
    if username == nil || password == nil {
      guard Terminal.inputIsTerminal else {
        throw UsageError(
          "login needs --username and --password (or --password-stdin) when input is not a terminal",
          invocation.command)
      }
      // End of input (Ctrl-D) at a prompt cancels the login; Ctrl-C ends the process (130).
      if username == nil {
        guard let answer = Terminal.prompt("username: ") else { throw CommandFailure("cancelled") }
        username = answer
      }
      if password == nil {
        guard let answer = Terminal.promptSecret("password: ") else {
          throw CommandFailure("cancelled")
        }
        password = answer
        if let password { KnownSecrets.register(password) }
      }
    }
    let model = try app.resolve(LoginViewModel.self)
    model.username = username ?? ""
    model.password = password ?? ""
    guard await model.login(), let user = model.user else {
      if let invalid = model.validationError { throw invalid }
      throw CommandFailure(model.state.message ?? "login failed")
    }
    return Output(
      text: .line(
        Localized.current(
          "account.signedIn",
          ["name": "\(user.firstName) \(user.lastName)", "username": user.username])),
      json: user)
  }

  /// Always forgets: a session file that could not be used (wrong mode, damaged, another
  /// user's) is removed too, with the account's kept answers, and a warning names it.
  static func logout(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let session = try app.resolve(AuthSession.self)
    let account = await session.account()
    if await session.isSignedIn {
      await (try app.resolve(ProfileViewModel.self)).signOut()
      return Output(
        text: .line(
          account.map { Localized.current("account.signedOutOf", ["account": $0]) }
            ?? Localized.current("account.signedOut")),
        json: ["signedIn": false])
    }
    let store = try app.resolve((any TokenStore).self)
    // attributesOfItem does not follow a symbolic link: a dangling one is found too.
    guard let file = (store as? FileTokenStore)?.path,
      (try? FileManager.default.attributesOfItem(atPath: file)) != nil
    else {
      return Output(
        text: .line(Localized.current("account.nothingToForget", ["api": app.apiName])),
        json: ["signedIn": false])
    }
    let why: String
    do {
      _ = try store.load()
      why = "its content is not a session"
    } catch {
      why = String(describing: error)
    }
    let named = store.storedAccount()
    await session.signOut()
    Terminal.error("warning: removed \(file), which could not be used (\(why))")
    return Output(
      text: .line(
        "signed out: the session file that could not be used is gone"
          + (named.map { ", with account \($0)'s kept answers" } ?? "")),
      json: ["signedIn": false])
  }

  static func me(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let model = try app.resolve(ProfileViewModel.self)
    await model.load()
    if let failure = model.state.failure { throw failure.error }
    guard let user = model.user else { throw CommandFailure("no user") }
    return UserCommands.detail(user)
  }
}
