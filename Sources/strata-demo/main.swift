import DemoKit
import Foundation
import Strata
import StrataSandbox

// Minimal entry point until the CLI issue lands: `sandbox serve [--port N]`.
let arguments = Array(CommandLine.arguments.dropFirst())
let usage = "usage: strata-demo sandbox serve [--port N]\n"

func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data(message.utf8))
  exit(status)
}

guard arguments.count >= 2, arguments[0] == "sandbox", arguments[1] == "serve" else {
  fail(usage, status: 2)
}
var port: UInt16 = 0
var rest = arguments.dropFirst(2)
while let flag = rest.popFirst() {
  switch flag {
  case "--port":
    guard let value = rest.popFirst(), let parsed = UInt16(value) else {
      fail("strata-demo: --port needs a number from 0 to 65535\n" + usage, status: 2)
    }
    port = parsed
  default:
    fail("strata-demo: unknown option '\(flag)'\n" + usage, status: 2)
  }
}
let server = SandboxServer(configuration: .init(port: port))
do {
  let bound = try server.start()
  print("sandbox listening on http://127.0.0.1:\(bound) (demo account: emilys / emilyspass)")
  server.wait()
} catch {
  fail("strata-demo: \(error)\n", status: 1)
}
