import DemoKit
import Foundation
import Strata

/// `login`, `logout`, `me`: the account feature, through its view models.
@MainActor
enum AccountCommands {
  nonisolated static let commands = [
    Command(
      "login",
      options: [
        OptionSpec(name: "username", valueName: "NAME"),
        OptionSpec(name: "password", valueName: "PASSWORD"),
        OptionSpec(name: "password-stdin", valueName: nil),
      ],
      example:
        "printf '%s' emilyspass | strata-demo --api http://127.0.0.1:8080 login --username emilys --password-stdin",
      run: .inApp(login)),
    Command(
      "logout", example: "strata-demo logout",
      run: .inApp(logout)),
    Command(
      "me", example: "strata-demo me", run: .inApp(me)),
  ]

  static func login(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    var username = invocation.option("username")
    var password = invocation.option("password")
    if invocation.option("password-stdin") != nil {
      guard password == nil else {
        throw UsageError(Localized.current("login.passwordTwice"), invocation.command)
      }
      guard username != nil else {
        throw UsageError(Localized.current("login.stdinNeedsUsername"), invocation.command)
      }
      password = try Terminal.readSecretLine(limit: 4096)
    }
    if let password { KnownSecrets.register(password) }
    if username == nil || password == nil {
      guard Terminal.inputIsTerminal else {
        throw UsageError(Localized.current("login.notTerminal"), invocation.command)
      }
      // End of input (Ctrl-D) at a prompt cancels the login; Ctrl-C ends the process (130).
      if username == nil {
        guard let answer = Terminal.prompt(Localized.current("login.username")) else {
          throw CommandFailure(Localized.current("cancelled"))
        }
        username = answer
      }
      if password == nil {
        guard let answer = Terminal.promptSecret(Localized.current("login.password")) else {
          throw CommandFailure(Localized.current("cancelled"))
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
      throw CommandFailure(model.state.message ?? Localized.current("login.failed"))
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
    let account = await session.owner().jsonAccount
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
        text: .line(Localized.current("account.nothingToForget", ["api": app.apiName()])),
        json: ["signedIn": false])
    }
    let why: String
    do {
      _ = try store.load()
      why = Localized.current("logout.notASession")
    } catch {
      why = String(describing: error)
    }
    let named = store.storedOwner().jsonAccount
    await session.signOut()
    let text = Localized.current
    // Said only of what is gone: a directory at the path (or one that cannot be removed)
    // stays, and the command fails saying so.
    if (try? FileManager.default.attributesOfItem(atPath: file)) != nil {
      throw CommandFailure(text("logout.notRemoved", ["file": file, "reason": why]))
    }
    Terminal.error(text("logout.removed", ["file": file, "reason": why]))
    return Output(
      text: .line(
        named.map { text("logout.unusableOf", ["account": $0]) } ?? text("logout.unusable")),
      json: ["signedIn": false])
  }

  static func me(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let model = try app.resolve(ProfileViewModel.self)
    await model.load()
    if let failure = model.state.failure { throw failure.error }
    guard let user = model.user else { throw CommandFailure(Localized.current("error.noUser")) }
    return UserCommands.detail(user)
  }
}
