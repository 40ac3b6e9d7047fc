// Uses Strata the way an app that never sets up logging does — every level, every built-in
// category, a failing request with a retry, a session signing in and out — then prints
// "done". With `--bootstrap` it sets up logging first, to show the same calls do write; with
// `--json`, from a configuration that asks for JSON lines.
import Foundation
import Strata

if CommandLine.arguments.contains("--bootstrap") {
  Log.levels = .all
  Log.bootstrap(sink: TextLogSink())
}
if CommandLine.arguments.contains("--json") {
  try Log.bootstrap(config: Config(parsing: "LOG_LEVEL = trace\nLOG_FORMAT = json"))
  Log.general.info("hello \("x", privacy: .private)")
}

for level in LogLevel.allCases {
  for log in [Log.general, Log.networking, Log.auth, Log(category: "app")] {
    log.log(level, "probe \(level)")
  }
}

guard let refusing = URL(string: "http://127.0.0.1:1"), let origin = Origin(refusing) else {
  exit(70)
}
let service = NetworkService(
  options: NetworkOptions(
    baseURL: refusing, retryPolicy: RetryPolicy(maxRetries: 1, baseDelay: .milliseconds(1))))
_ = try? await service.send(Request<EmptyResponse>(path: "users/1"))

let session = AuthSession(origin: origin, store: InMemoryTokenStore())
try? await session.signIn(Credentials(accessToken: "a", refreshToken: "r", origin: origin))
await session.signOut()

print("done")
