import DemoKit
import Foundation
import Strata

/// `download URL FILE [--resume]`: any answer saved to a file as it arrives, through the whole
/// send path (retries resume, the deadline, the size limit, the session's token for the API's
/// own origin when signed in), with a progress line on a terminal.
@MainActor
enum DownloadCommand {
  nonisolated static let commands = [
    Command(
      "download", positionals: ["URL", "FILE"],
      options: [OptionSpec(name: "resume", valueName: nil)],
      example: "strata-demo download icon/emilys/1000 emily.png --resume", run: .inApp(download))
  ]

  /// What `--json` prints.
  struct Saved: Encodable {
    let file: String
    let bytes: Int64
    let status: Int
    let resumed: Bool
  }

  static func download(_ app: AppContext, _ invocation: Invocation) async throws -> Output {
    let (address, file) = (invocation.positionals[0], invocation.positionals[1])
    guard let url = URL(string: address),
      url.scheme == nil || ["http", "https"].contains(url.scheme?.lowercased() ?? "")
    else {
      throw UsageError(
        Localized.current("download.badURL", ["got": Invocation.quoted(address)]),
        invocation.command)
    }
    let line = ProgressLine(shown: Terminal.errorIsTerminal && !invocation.json)
    defer { line.finish() }
    var request = Request<Data>(path: url.absoluteString)
    // The session's token goes with it when signed in — and, as with every request, only to
    // the API's own origin: a URL elsewhere is fetched without it.
    request.requiresAuth = await (try? app.resolve(AuthSession.self))?.isSignedIn ?? false
    let saved: NetworkResponse<URL>
    do {
      saved = try await app.resolve((any Networking).self).download(
        Download(
          request, to: URL(fileURLWithPath: file), resumes: invocation.option("resume") != nil),
        progress: line.follow())
    } catch let error as NetworkError {
      // What arrived before the cut is kept beside the file: say so, and how to go on.
      let part =
        (try? FileManager.default.attributesOfItem(atPath: file + ".part")[.size] as? Int) ?? 0
      guard part > 0 else { throw error }
      throw Hinted(
        error,
        Localized.current(
          "download.partKept",
          [
            "part": file + ".part", "bytes": String(part),
            "command": "strata-demo download \(address) \(file) --resume",
          ]))
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int64) ?? 0
    let text = Localized.current
    return Output(
      text: .line(
        text.plural("download.saved", count: Int(size), ["file": file])
          + (saved.status == 206 ? " " + text("download.resumed") : "")),
      json: Saved(file: file, bytes: size, status: saved.status, resumed: saved.status == 206))
  }
}
