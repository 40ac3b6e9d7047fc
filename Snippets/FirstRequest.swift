import Foundation
import Strata

struct User: Decodable, Sendable {
  let id: Int
  let firstName: String
}

extension Config.Key {
  static let api: Config.Key = "API"  // the app's keys sit beside Strata's own
}

do {
  // No file needed: STRATA_API=… overrides the default; `Config(file: "App.xcconfig")` reads one.
  let config = try Config(defaults: [.api: "https://dummyjson.com"])
  try Log.bootstrap(config: config)  // LOG_LEVEL, LOG_FORMAT; nothing is logged before
  let network = NetworkService(
    options: try NetworkOptions(config: config, baseURL: config.url(.api)))
  let user = try await network.send(Request<User>(path: "users/1")).value  // a User
  print(user.firstName)
} catch {
  // A bad configuration names file:line:column; a failed request names the request.
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
