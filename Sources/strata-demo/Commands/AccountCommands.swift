import DemoKit
import Strata

/// `login`, `logout`, `me`.
@MainActor
enum AccountCommands {
  static func login(_ app: AppContext, _ invocation: Invocation) async throws {
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
    if invocation.json {
      Terminal.out(try TableRenderer.json(user))
    } else {
      Terminal.out("signed in as \(user.firstName) \(user.lastName) (@\(user.username))")
    }
  }

  static func logout(_ app: AppContext, _ invocation: Invocation) async throws {
    let model = try app.resolve(ProfileViewModel.self)
    await model.signOut()
    Terminal.out(invocation.json ? #"{"signedIn":false}"# : "signed out")
  }

  static func me(_ app: AppContext, _ invocation: Invocation) async throws {
    let user = try await app.resolve((any AuthRepository).self).me()
    Terminal.out(invocation.json ? try TableRenderer.json(user) : UserDetail.render(user))
  }
}

/// The detail view of one user.
enum UserDetail {
  static func render(_ user: User) -> String {
    TableRenderer.detail([
      ("ID", String(user.id)), ("Name", user.fullName), ("Username", user.username),
      ("Email", user.email),
      ("Age", user.age.map(String.init)), ("Phone", user.phone),
      ("Address", user.address.map { "\($0.address), \($0.city), \($0.state) \($0.postalCode)" }),
      ("Company", user.company.map { "\($0.title), \($0.department) — \($0.name)" }),
      ("Role", user.role),
    ])
  }
}
