import Foundation

// strata-demo: the composition root and the commands. Everything else lives in the libraries.
let status = await StrataDemo.run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
