import DemoKit
import Foundation
import Strata

/// The CLI's exit statuses.
enum ExitStatus: Int32, CaseIterable {
  case ok = 0
  case failure = 1
  case usage = 2
  /// EX_DATAERR: input a business rule refuses (a blank title); nothing was sent.
  case dataError = 65
  /// EX_CANTCREAT: an output file (`--http-log`) cannot be created or written.
  case cantCreate = 73
  /// EX_IOERR: writing the output failed (a full disk, a closed stdout).
  case ioError = 74
  /// EX_TEMPFAIL: changes wait for the server (or for a sync already running).
  case tempFail = 75
  case unauthorized = 77
  case config = 78
}

/// A command that could not do its job, with the sentence to print (exit status 1).
struct CommandFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Input that names nothing the command can act on — an unknown id, one that names several —
/// with the sentence to print (exit status 65, EX_DATAERR); nothing was done.
struct DataError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// No session for the API the command talks to, or the server ended it (exit status 77).
struct SignInRequired: Error {
  let api: String
  /// The command started with a session and the server refused it (and its refresh).
  var sessionEnded = false
}

/// Turns any error into one line on stderr and an exit status.
enum Failure {
  /// A refused setting in the user's language (the library says it in English).
  static func sentence(_ refused: PreferenceError) -> String {
    let text = Localized.current
    switch refused {
    case .unknown(let name, let known):
      return text(
        "settings.unknown",
        ["name": Invocation.quoted(name), "known": known.joined(separator: ", ")])
    case .invalid(let name, let value, let allowed):
      return text(
        "settings.invalid", ["name": name, "value": Invocation.quoted(value), "allowed": allowed])
    case .tooLong(let name, let limit):
      return text("settings.tooLong", ["name": name, "limit": String(limit)])
    }
  }

  static func report(_ error: any Error, command: Command?) -> ExitStatus {
    switch error {
    case let usage as UsageError:
      let shown = usage.isGlobal ? nil : usage.command ?? command
      let text = Localized.current
      let usageLine = shown?.usage ?? "strata-demo [global options] COMMAND [options]"
      let help = "strata-demo \(shown.map { $0.name + " " } ?? "")--help"
      Terminal.error("strata-demo: \(usage.message)")
      Terminal.error(text("usage.line", ["usage": usageLine]))
      Terminal.error(text("usage.more", ["command": help]))
      return .usage
    case let invalid as ValidationError:
      Terminal.error("strata-demo: \(invalid)")
      return .dataError
    case let unknown as DataError:
      Terminal.error("strata-demo: \(unknown)")
      return .dataError
    case let shared as SharedServerID:
      // Bad input (which item?), not a failure: nothing was changed or sent.
      Terminal.error("strata-demo: \(shared)")
      return .dataError
    case let refused as PreferenceError:
      Terminal.error("strata-demo: " + Self.sentence(refused))
      return .dataError
    case let off as FeatureOff:
      Terminal.error("strata-demo: \(command.map { $0.name + ": " } ?? "")\(off)")
      return .config
    case let config as ConfigError:
      Terminal.error(
        "strata-demo: " + Localized.current("error.configuration", ["reason": "\(config)"]))
      return .config
    case let container as DependencyError:
      // One line for the real cause: a bad configuration value fails every service that
      // depends on it, and is a configuration error (78) whenever it is found.
      let causes = container.underlyingErrors
      if let cause = causes.first(where: { $0 is ConfigError }) ?? causes.first {
        return report(cause, command: command)
      }
      Terminal.error(
        "strata-demo: "
          + Localized.current(
            "error.failed", ["command": command?.name ?? "command", "reason": "\(container)"]))
      return .failure
    case let missing as SignInRequired where missing.sessionEnded:
      // The request went out with the session's token and the server refused it (and its
      // refresh): the session is over, and retrying cannot help.
      Terminal.error("strata-demo: " + Localized.current("error.sessionEnded"))
      return .unauthorized
    case let missing as SignInRequired:
      Terminal.error("strata-demo: " + Localized.current("error.notSignedIn", ["api": missing.api]))
      return .unauthorized
    case let file as CantCreate:
      Terminal.error("strata-demo: \(file)")
      return .cantCreate
    case FileError.syncInProgress:
      Terminal.error("strata-demo: " + Localized.current("error.syncRunning"))
      return .tempFail
    case let network as NetworkError where network.kind == .offline:
      Terminal.error("strata-demo: " + Localized.current("error.offline"))
      return .failure
    case let network as NetworkError where network.isUnauthorized:
      Terminal.error("strata-demo: " + Localized.current("error.notSignedInHere"))
      return .unauthorized
    case let network as NetworkError:
      Terminal.error(
        "strata-demo: "
          + Localized.current(
            "error.failed", ["command": command?.name ?? "command", "reason": "\(network)"]))
      return .failure
    default:
      Terminal.error(
        "strata-demo: "
          + Localized.current(
            "error.failed", ["command": command?.name ?? "command", "reason": "\(error)"]))
      return .failure
    }
  }
}
