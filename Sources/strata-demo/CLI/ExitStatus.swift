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

/// A failure with what the user can do next (a part kept, and the command that continues it):
/// said as `error` is, then the hint on a line of its own (`detail` under `--json`).
struct Hinted: Error {
  let error: any Error
  let hint: String
  init(_ error: any Error, _ hint: String) { (self.error, self.hint) = (error, hint) }
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
        "settings.invalid",
        [
          "name": name, "value": Invocation.quoted(value),
          "allowed": DemoSettings.allowed(name, otherwise: allowed),
        ])
    case .tooLong(let name, let limit):
      return text("settings.tooLong", ["name": name, "limit": String(limit)])
    }
  }

  /// Prints what `error` means — lines on stderr, or with `--json` one JSON object
  /// (`{"error": …, "detail": …, "exit": N}`, English) — and returns the exit status.
  static func report(_ error: any Error, command: Command?, json: Bool = false) -> ExitStatus {
    let (lines, status) = describe(error, command: command)
    say(lines, status: status, json: json)
    return status
  }

  /// Prints a failure's lines on stderr; with `json`, as one JSON object on one line.
  static func say(_ lines: String..., status: ExitStatus, json: Bool) {
    say(lines, status: status, json: json)
  }

  private static func say(_ lines: [String], status: ExitStatus, json: Bool) {
    guard json else {
      for line in lines { Terminal.error(line) }
      return
    }
    let message = lines.first.map { String($0.trimmingPrefix("strata-demo: ")) } ?? ""
    let problem = JSONProblem(
      error: message, detail: lines.count > 1 ? lines[1...].joined(separator: "\n") : nil,
      exit: status.rawValue)
    Terminal.error((try? Output.json(problem, pretty: false)) ?? #"{"error":"?","exit":1}"#)
  }

  /// A failure the library says in English, in the user's words (`GET /users: network error:
  /// could not connect to the server`); a server's own message stays the server's.
  private static func inWords(_ network: NetworkError) -> String {
    let text = Localized.current
    let reason: String
    switch network.kind {
    case .transport(let failure):
      guard let said = sayURLError(failure.code.rawValue) else { return "\(network)" }
      reason = text("error.network", ["reason": said])
    case .deadlineExceeded: reason = text("error.deadline")
    case .responseTooLarge(let limit): reason = text("error.tooLarge", ["limit": String(limit)])
    case .invalidResponse: reason = text("error.invalidResponse")
    case .server(let status, _) where network.serverMessage == nil:
      reason = text("error.status", ["status": String(status)])
    default: return "\(network)"
    }
    return network.request.map { "\($0): \(reason)" } ?? reason
  }

  /// A failure without an answer (`URLError` `code`) in the user's words; nil for a code the
  /// strings do not name.
  static func sayURLError(_ code: Int) -> String? {
    Localized.current.sentence("reason.urlError.\(code)")
  }

  /// For a change that could not reach the server, the way to keep it: `--offline`.
  private static func offlineHint(_ network: NetworkError, _ command: Command?) -> [String] {
    let unreachable: Bool
    switch network.kind {
    case .offline, .transport: unreachable = true
    default: unreachable = false
    }
    guard unreachable, let command, command.options.contains(where: { $0.name == "offline" })
    else { return [] }
    return [Localized.current("hint.offline", ["command": command.name])]
  }

  /// What `error` says, line by line, and the exit status it means.
  private static func describe(_ error: any Error, command: Command?) -> (
    lines: [String], status: ExitStatus
  ) {
    var lines: [String] = []
    switch error {
    case let hinted as Hinted:
      let (said, status) = describe(hinted.error, command: command)
      return (said + [hinted.hint], status)
    case let usage as UsageError:
      let shown = usage.isGlobal ? nil : usage.command ?? command
      let text = Localized.current
      let usageLine = shown?.usage ?? CommandTable.usage
      let help = "strata-demo \(shown.map { $0.name + " " } ?? "")--help"
      lines.append("strata-demo: \(usage.message)")
      lines.append(text("usage.line", ["usage": usageLine]))
      lines.append(text("usage.more", ["command": help]))
      return (lines, .usage)
    case let invalid as ValidationError:
      lines.append("strata-demo: \(invalid)")
      return (lines, .dataError)
    case let unknown as DataError:
      lines.append("strata-demo: \(unknown)")
      return (lines, .dataError)
    case let shared as SharedServerID:
      // Bad input (which item?), not a failure: nothing was changed or sent.
      lines.append("strata-demo: \(shared)")
      return (lines, .dataError)
    case let refused as PreferenceError:
      lines.append("strata-demo: " + Self.sentence(refused))
      return (lines, .dataError)
    case let off as FeatureOff:
      lines.append("strata-demo: \(command.map { $0.name + ": " } ?? "")\(off)")
      return (lines, .config)
    case let config as ConfigError:
      lines.append(
        "strata-demo: " + Localized.current("error.configuration", ["reason": "\(config)"]))
      return (lines, .config)
    case let container as DependencyError:
      // One line for the real cause: a bad configuration value fails every service that
      // depends on it, and is a configuration error (78) whenever it is found.
      let causes = container.underlyingErrors
      if let cause = causes.first(where: { $0 is ConfigError }) ?? causes.first {
        return describe(cause, command: command)
      }
      lines.append(
        "strata-demo: "
          + Localized.current(
            "error.failed", ["command": command?.name ?? "command", "reason": "\(container)"]))
      return (lines, .failure)
    case let missing as SignInRequired where missing.sessionEnded:
      // The request went out with the session's token and the server refused it (and its
      // refresh): the session is over, and retrying cannot help.
      lines.append("strata-demo: " + Localized.current("error.sessionEnded"))
      return (lines, .unauthorized)
    case let missing as SignInRequired:
      lines.append("strata-demo: " + Localized.current("error.notSignedIn", ["api": missing.api]))
      return (lines, .unauthorized)
    case let file as CantCreate:
      lines.append("strata-demo: \(file)")
      return (lines, .cantCreate)
    case FileError.syncInProgress:
      lines.append("strata-demo: " + Localized.current("error.syncRunning"))
      return (lines, .tempFail)
    case let network as NetworkError where network.kind == .offline:
      lines.append("strata-demo: " + Localized.current("error.offline"))
      lines += offlineHint(network, command)
      return (lines, .failure)
    case let network as NetworkError where network.isUnauthorized:
      lines.append("strata-demo: " + Localized.current("error.notSignedInHere"))
      return (lines, .unauthorized)
    case let network as NetworkError:
      lines.append(
        "strata-demo: "
          + Localized.current(
            "error.failed", ["command": command?.name ?? "command", "reason": inWords(network)]))
      lines += offlineHint(network, command)
      return (lines, .failure)
    default:
      lines.append(
        "strata-demo: "
          + Localized.current(
            "error.failed", ["command": command?.name ?? "command", "reason": "\(error)"]))
      return (lines, .failure)
    }
  }
}

/// A failure as `--json` prints it on stderr.
private struct JSONProblem: Encodable {
  let error: String
  /// The lines after the first: a usage error's usage, a hint.
  let detail: String?
  let exit: Int32
}
