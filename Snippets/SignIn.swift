import Foundation
import Strata

// snippet.hide
struct User: Decodable, Sendable {
  let id: Int
  let firstName: String
}

struct SignedIn: Decodable, Sendable {
  let accessToken: String
  let refreshToken: String
}

struct Login: Encodable, Sendable {
  let username: String
  let password: Secret<String>  // sent as is; printed and dumped as <redacted>
}

let config = try Config(overrides: ["API": "https://dummyjson.com"])
// snippet.show
let api = try config.url("API")
guard let origin = Origin(api) else { throw URLError(.badURL) }  // not http(s)
let session = AuthSession(origin: origin, store: FileTokenStore(app: "MyApp", origin: origin))
let network = NetworkService(
  options: try NetworkOptions(config: config, baseURL: api), authenticator: session)

let login = Request<SignedIn>(
  path: "auth/login", method: .post,
  body: .json(Login(username: "emilys", password: Secret("emilyspass"))))
let tokens = try await network.send(login).value
try await session.signIn(
  Credentials(
    accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, lifetime: .seconds(3600)))
let me = try await network.send(Request<User>(path: "auth/me", requiresAuth: true)).value
