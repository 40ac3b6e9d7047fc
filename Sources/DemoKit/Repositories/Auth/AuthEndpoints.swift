import Strata

/// DummyJSON's `/auth` endpoints. Internal: their responses carry tokens.
enum AuthEndpoints {
  struct Login: Endpoint {
    struct Body: Encodable, Sendable {
      let username: String
      let password: String
      let expiresInMins: Int
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
    let lifetimeMinutes: Int
    var path: String { "auth/login" }
    var method: HTTPMethod { .post }
    var body: (any Encodable & Sendable)? {
      Body(username: username, password: password, expiresInMins: lifetimeMinutes)
    }
  }

  struct Refresh: Endpoint {
    typealias Response = TokenResponse
    struct Body: Encodable, Sendable {
      let refreshToken: String
      let expiresInMins: Int
    }
    let refreshToken: String
    let lifetimeMinutes: Int
    var path: String { "auth/refresh" }
    var method: HTTPMethod { .post }
    var body: (any Encodable & Sendable)? {
      Body(refreshToken: refreshToken, expiresInMins: lifetimeMinutes)
    }
  }

  struct Me: Endpoint {
    typealias Response = User
    var path: String { "auth/me" }
    var requiresAuth: Bool { true }
  }

  /// Best effort on the way out: one attempt, a short deadline.
  struct Logout: Endpoint {
    typealias Response = EmptyResponse
    var path: String { "auth/logout" }
    var method: HTTPMethod { .post }
    var requiresAuth: Bool { true }
    var retryPolicy: RetryPolicy? { RetryPolicy.none }
    var timeout: Duration? { .seconds(5) }
  }
}
