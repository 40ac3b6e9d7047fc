import DemoKit
import Foundation
import StrataSandbox

/// `sandbox serve [--port N] [--fault SPEC]… [--rotate-refresh-tokens] [--keep-writes]`: the
/// embedded API, until interrupted.
enum SandboxCommand {
  nonisolated static let commands = [
    Command(
      "sandbox serve",
      options: [
        OptionSpec(name: "port", valueName: "N"),
        OptionSpec(
          name: "fault", valueName: "SPEC",
          helpArguments: [
            "actions": FaultInjector.Fault.actionSpellings.joined(separator: ", ")
          ]),
        OptionSpec(name: "rotate-refresh-tokens", valueName: nil),
        OptionSpec(name: "keep-writes", valueName: nil),
      ],
      example: "strata-demo sandbox serve --port 8080 --fault 'GET /users 503x2'",
      printsJSON: false, run: .standalone(serve))
  ]

  @MainActor
  static func serve(_ invocation: Invocation) async throws -> Output {
    let port = try invocation.integer("port", default: 8080, in: 0...65_535)
    let faults = try invocation.values("fault").map { spec in
      do {
        return try FaultInjector.Fault(spec: spec)
      } catch {
        throw UsageError(String(describing: error), invocation.command)
      }
    }
    var configuration = SandboxServer.Configuration(
      port: UInt16(port),
      rotatesRefreshTokens: !invocation.values("rotate-refresh-tokens").isEmpty)
    configuration.keepsWrites = invocation.option("keep-writes") != nil
    let server = SandboxServer(configuration: configuration)
    for fault in faults { server.faults.add(fault) }
    do {
      try server.start()
    } catch {
      throw CommandFailure(Localized.current("sandbox.portTaken", ["reason": "\(error)"]))
    }
    let text = Localized.current
    Terminal.out(text("sandbox.listening", ["url": server.baseURL.absoluteString]))
    for spec in invocation.values("fault") { Terminal.out(text("sandbox.fault", ["fault": spec])) }
    if configuration.keepsWrites { Terminal.out(text("sandbox.keepsWrites")) }
    while true { try await Task.sleep(for: .seconds(3600)) }
  }

}
