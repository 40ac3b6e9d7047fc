import DemoKit
import Strata

/// Parses the command line, runs one command, maps failures to exit statuses.
@MainActor
enum StrataDemo {
  static func run(_ arguments: [String]) async -> ExitStatus {
    var command: CommandSpec?
    do {
      let invocation = try CommandLineParser.parse(arguments)
      command = invocation.command
      if invocation.version {
        Terminal.out("\(CommandCatalog.version) (Strata \(strataVersion))")
        return .ok
      }
      guard let spec = invocation.command else {
        Terminal.out(CommandCatalog.help)
        return .ok
      }
      if invocation.help {
        Terminal.out(spec.help)
        return .ok
      }
      try await dispatch(spec, invocation)
      return .ok
    } catch {
      return Failure.report(error, command: command)
    }
  }

  private static func dispatch(_ command: CommandSpec, _ invocation: Invocation) async throws {
    switch command.name {
    case "config show": return try ConfigCommand.show(invocation)
    case "sandbox serve": return try await SandboxCommand.serve(invocation)
    case "tour": return try await TourCommand.run(invocation)
    default: break
    }
    let app = try AppContext.start(invocation)
    // Whether a session existed before the command: a refusal then means the server ended it.
    let hadSession = await (try? app.resolve(AuthSession.self))?.isSignedIn ?? false
    do {
      switch command.name {
      case "login": try await AccountCommands.login(app, invocation)
      case "logout": try await AccountCommands.logout(app, invocation)
      case "me": try await AccountCommands.me(app, invocation)
      case "users": try await ResourceCommands.users(app, invocation)
      case "user": try await ResourceCommands.user(app, invocation)
      case "posts": try await ResourceCommands.posts(app, invocation)
      case "post create": try await ResourceCommands.createPost(app, invocation)
      case "todos": try await ResourceCommands.todos(app, invocation)
      case "todo toggle": try await ResourceCommands.toggleTodo(app, invocation)
      default: throw UsageError("unknown command '\(command.name)'", nil)
      }
    } catch let error as NetworkError where error.isUnauthorized {
      await app.shutdown()
      throw SignInRequired(api: app.apiName, sessionEnded: hadSession)
    } catch {
      await app.shutdown()
      throw error
    }
    await app.shutdown()
  }
}
