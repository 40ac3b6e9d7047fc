import DemoKit
import Strata

/// Parses the command line, runs one command, maps failures to exit statuses.
@MainActor
enum StrataDemo {
  static func run(_ arguments: [String]) async -> ExitStatus {
    var command: Command?
    // Output for programs is English on every machine, its errors included, so the choice
    // is made before anything is parsed or said.
    let json = arguments.prefix { $0 != "--" }.contains("--json")
    if json { Localized.speak("en") }
    do {
      let invocation = try CommandLineParser.parse(arguments)
      command = invocation.command
      if invocation.version {
        let version = ["version": CommandTable.version, "strata": strataVersion]
        Terminal.out(
          invocation.json
            ? try Output.json(version) : "\(CommandTable.version) (Strata \(strataVersion))")
        return .ok
      }
      if invocation.help || invocation.command == nil {
        let text =
          invocation.command?.help ?? invocation.helpGroup.map(CommandTable.help(group:))
          ?? CommandTable.help
        // With --json, the help is one JSON object too: a script reading stdout parses it.
        Terminal.out(invocation.json ? try Output.json(["help": text]) : text)
        return .ok
      }
      guard let spec = invocation.command else { return .ok }
      if invocation.json, !spec.printsJSON {
        throw UsageError(Localized.current("usage.noJSON", ["command": spec.name]), spec)
      }
      return try await dispatch(spec, invocation)
    } catch {
      return Failure.report(error, command: command, json: json)
    }
  }

  /// Runs the command's handler (in an app context if it needs one) and prints its output.
  private static func dispatch(_ command: Command, _ invocation: Invocation) async throws
    -> ExitStatus
  {
    let output: Output
    var logProblems: [String] = []
    switch command.run {
    case .standalone(let run):
      output = try await run(invocation)
    case .inApp(let run):
      let app = try await AppContext.start(invocation)
      if let feature = command.feature, try !app.resolve(FeatureFlags.self).isOn(feature) {
        await app.shutdown()
        throw FeatureOff(feature)
      }
      // Whether a session existed before the command: a refusal then means the server ended it.
      let hadSession = await (try? app.resolve(AuthSession.self))?.isSignedIn ?? false
      do {
        output = try await run(app, invocation)
      } catch let error as NetworkError where error.isUnauthorized {
        await app.shutdown()
        // A 401 to a request that carried no session (another origin's URL): the session is
        // fine, and signing in again would not change what is sent there.
        if hadSession, error.kind == .unauthorized(.signInRequired) {
          throw CommandFailure(Localized.current("error.requiresSignIn", ["api": app.apiName()]))
        }
        throw SignInRequired(api: app.apiName(), sessionEnded: hadSession)
      } catch {
        await app.shutdown()
        throw error
      }
      await app.shutdown()
      logProblems = app.logProblems
    }
    if let text = try output.rendered(json: invocation.json) { Terminal.out(text) }
    let status = logProblems.isEmpty || output.status != .ok ? output.status : .cantCreate
    for problem in logProblems {
      Failure.say("strata-demo: \(problem)", status: .cantCreate, json: invocation.json)
    }
    return status
  }
}
