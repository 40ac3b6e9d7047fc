import Foundation
import StrataSandbox

/// `sandbox serve [--port N] [--fault SPEC]… [--rotate-refresh-tokens]`: the embedded API,
/// until interrupted.
enum SandboxCommand {
  static func serve(_ invocation: Invocation) async throws {
    let port = try invocation.integer("port", default: 8080, in: 0...65_535)
    let faults = try invocation.values("fault").map { spec in
      do {
        return try FaultInjector.Fault(spec: spec)
      } catch {
        throw UsageError(String(describing: error), invocation.command)
      }
    }
    let server = SandboxServer(
      configuration: .init(
        port: UInt16(port),
        rotatesRefreshTokens: !invocation.values("rotate-refresh-tokens").isEmpty))
    for fault in faults { server.faults.add(fault) }
    do {
      try server.start()
    } catch {
      throw CommandFailure("\(error); try another --port")
    }
    Terminal.out(
      "sandbox listening on \(server.baseURL.absoluteString) (demo account: emilys / emilyspass)")
    for spec in invocation.values("fault") { Terminal.out("fault armed: \(spec)") }
    while true { try await Task.sleep(for: .seconds(3600)) }
  }

}
