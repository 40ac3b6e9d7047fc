import Strata

/// DummyJSON's `/auth` endpoints. Internal: their responses carry tokens.
enum AuthEndpoints {
  struct Login: Endpoint {
    struct Body: Encodable, Sendable {
      let username: String
      let password: String
      let expiresInMins: Int
      let expiresInSeconds: Int
    }
    struct Response: Decodable, Sendable {
      let user: AuthUser
      let tokens: TokenResponse
      init(from decoder: any Decoder) throws {
        user = try AuthUser(from: decoder)
        tokens = try TokenResponse(from: decoder)
      }
    }
    let username: String
    let password: String
    let lifetimeSeconds: Int
    var path: String { "auth/login" }
    var method: HTTPMethod { .post }
    var body: (any Encodable & Sendable)? {
      Body(
        username: username, password: password, expiresInMins: max(1, lifetimeSeconds / 60),
        expiresInSeconds: lifetimeSeconds)
    }
  }

  struct Refresh: Endpoint {
    typealias Response = TokenResponse
    struct Body: Encodable, Sendable {
      let refreshToken: String
      let expiresInMins: Int
      let expiresInSeconds: Int
    }
    let refreshToken: String
    let lifetimeSeconds: Int
    var path: String { "auth/refresh" }
    var method: HTTPMethod { .post }
    var body: (any Encodable & Sendable)? {
      Body(
        refreshToken: refreshToken, expiresInMins: max(1, lifetimeSeconds / 60),
        expiresInSeconds: lifetimeSeconds)
    }
  }

  struct Me: Endpoint {
    typealias Response = User
    var path: String { "auth/me" }
    var requiresAuth: Bool { true }
  }
}
