import Foundation

// strata-demo: runs one command of the table (CommandTable); DemoContainer builds the app.
Terminal.occupyClosedStandardDescriptors()
// A file grown past the process's size limit (`ulimit -f`) is a write error the command
// reports ("File too large", exit 1), not SIGXFSZ ending it without a word.
signal(SIGXFSZ, SIG_IGN)
let status = await StrataDemo.run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
