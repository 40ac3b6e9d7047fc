import Foundation
import StrataSandbox

/// `sandbox serve [--port N] [--fault SPEC]… [--rotate-refresh-tokens] [--keep-writes]`: the
/// embedded API, until interrupted.
enum SandboxCommand {
  nonisolated static let commands = [
    Command(
      "sandbox serve", summary: "Run the embedded DummyJSON-compatible API until interrupted.",
      options: [
        OptionSpec(name: "port", valueName: "N", help: "port on 127.0.0.1 (default 8080; 0 = any)"),
        OptionSpec(
          name: "fault", valueName: "SPEC",
          help:
            "inject a fault, repeatable: 'GET /users 503x2', '* /posts/* drop', 'GET /todos delay=2s x3', '* /* echo=500', 'GET /users endless'"
        ),
        OptionSpec(
          name: "rotate-refresh-tokens", valueName: nil,
          help: "each refresh token works once (as servers that rotate them do)"),
        OptionSpec(
          name: "keep-writes", valueName: nil,
          help:
            "keep what is created, edited and deleted, readable by id (DummyJSON keeps nothing)"),
      ],
      example: "strata-demo sandbox serve --port 8080 --fault 'GET /users 503x2'",
      run: .standalone(serve))
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
      throw CommandFailure("\(error); try another --port")
    }
    Terminal.out(
      "sandbox listening on \(server.baseURL.absoluteString) (demo account: emilys / emilyspass)")
    for spec in invocation.values("fault") { Terminal.out("fault armed: \(spec)") }
    if configuration.keepsWrites { Terminal.out("writes are kept: a post made can be edited") }
    while true { try await Task.sleep(for: .seconds(3600)) }
  }

}
