import Foundation

// strata-demo: runs one command of the table (CommandTable); DemoContainer builds the app.
Terminal.occupyClosedStandardDescriptors()
let status = await StrataDemo.run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
