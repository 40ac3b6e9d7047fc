import DemoKit
import Foundation
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
      "user", positionals: ["ID"], options: [OptionSpec(name: "avatar", valueName: "FILE")],
      example: "strata-demo user 1 --avatar emily.png", run: .inApp(user)),
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
    guard let file = invocation.option("avatar") else { return detail(user) }
    var shown = detail(user)
    do {
      let saved = try await saveAvatar(of: user, to: file, app)
      if case .detail(let fields) = shown.text {
        shown.text = .line(Output.detail(fields) + "\n" + saved)
      }
    } catch {
      // The user was read: shown all the same; the picture is reported on its own (exit 1).
      let reason =
        (error as? CantCreate)?.description
        ?? Localized.current("avatar.failed", ["reason": "\(error)"])
      Failure.say("strata-demo: " + reason, status: .failure, json: invocation.json)
      shown.status = .failure
    }
    return shown
  }

  /// Why a file could not be written, as the system says it ("Permission denied"), not
  /// Foundation's dump of the error.
  private static func reason(_ error: any Error) -> String {
    let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
    if let posix = underlying, posix.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(posix.code)))
    }
    if let code = (error as? CocoaError)?.code {
      switch code {
      case .fileWriteNoPermission: return String(cString: strerror(EACCES))
      case .fileNoSuchFile, .fileWriteInvalidFileName: return String(cString: strerror(ENOENT))
      case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
      default: break
      }
    }
    return error.localizedDescription
  }

  /// `--avatar FILE`: the user's picture through the HTTP cache (fresh for the year DummyJSON
  /// gives it), written whole (a crash leaves the old file or the new one).
  private static func saveAvatar(of user: User, to file: String, _ app: AppContext) async throws
    -> String
  {
    let line = ProgressLine(shown: Terminal.errorIsTerminal)
    defer { line.finish() }
    let avatar = try await app.resolve((any AvatarRepository).self).avatar(
      of: user, progress: line.follow())
    do {
      try avatar.value.write(to: URL(fileURLWithPath: file), options: .atomic)
    } catch {
      throw CantCreate(
        Localized.current(
          "avatar.cannotWrite", ["file": Invocation.quoted(file), "reason": reason(error)]))
    }
    let text = Localized.current
    let source = text(avatar.source.label == "hit" ? "avatar.fromCache" : "avatar.fromNetwork")
    return text.plural(
      "avatar.saved", count: avatar.value.count, ["file": file, "source": source])
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
