import Foundation
import Strata

struct User: Decodable, Sendable {
  let id: Int
  let firstName: String
}

/// DummyJSON's answer to `POST /auth/login`: the user's id and the tokens.
struct SignedIn: Decodable, Sendable {
  let id: Int
  let accessToken: String
  let refreshToken: String
}

struct Login: Encodable, Sendable {
  let username: String
  let password: Secret<String>  // sent as is; printed and dumped as <redacted>
}

let config = try Config(defaults: ["API": "https://dummyjson.com"])  // STRATA_API=… overrides
let api = try config.url("API")
guard let origin = Origin(api) else { throw URLError(.badURL) }  // not http(s)
let session = AuthSession(origin: origin, store: FileTokenStore(app: "MyApp", origin: origin))
let network = NetworkService(
  options: try NetworkOptions(config: config, baseURL: api), authenticator: session)

let login = Request<SignedIn>(
  path: "auth/login", method: .post,
  body: .json(Login(username: "emilys", password: Secret("emilyspass"))))
let tokens = try await network.send(login).value
// The owner names whose answers and changes these are: kept for this account alone.
try await session.signIn(
  Credentials(
    accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, lifetime: .seconds(3600),
    owner: .account("user-\(tokens.id)")))
let me = try await network.send(Request<User>(path: "auth/me", requiresAuth: true)).value
print(me.firstName)
