import Strata

struct User: Decodable, Sendable {
  let id: Int
  let firstName: String
}

extension Config.Key {
  static let api: Config.Key = "API"  // the app's keys sit beside Strata's own
}

let config = try Config(file: "Config/Release.xcconfig")  // STRATA_API=… overrides API
try Log.bootstrap(config: config)  // LOG_LEVEL, LOG_FORMAT; nothing is logged before
let network = NetworkService(
  options: try NetworkOptions(config: config, baseURL: config.url(.api)))
let user = try await network.send(Request<User>(path: "users/1")).value  // a User, no annotation
print(user.firstName)
