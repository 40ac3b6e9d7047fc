import Strata

/// DummyJSON's `/auth` calls. Internal: their responses carry tokens.
enum AuthRequests {
  // The secrets are `Secret`s: encoded as they are, but a body printed or dumped by mistake
  // shows `<redacted>`.
  private struct LoginBody: Encodable, Sendable {
    let username: String
    let password: Secret<String>
    let expiresInMins: Int
  }
  private struct RefreshBody: Encodable, Sendable {
    let refreshToken: Secret<String>
    let expiresInMins: Int
  }

  /// The login answer: the user's public fields and the tokens, side by side in one object.
  struct SignedIn: Decodable, Sendable {
    let user: AuthUser
    let tokens: TokenResponse
    init(from decoder: any Decoder) throws {
      user = try AuthUser(from: decoder)
      tokens = try TokenResponse(from: decoder)
    }
  }

  static func login(username: String, password: String, lifetimeMinutes: Int) -> Request<SignedIn> {
    Request(
      path: "auth/login", method: .post,
      body: .json(
        LoginBody(username: username, password: Secret(password), expiresInMins: lifetimeMinutes)))
  }

  static func refresh(_ refreshToken: String, lifetimeMinutes: Int) -> Request<TokenResponse> {
    Request(
      path: "auth/refresh", method: .post,
      body: .json(
        RefreshBody(refreshToken: Secret(refreshToken), expiresInMins: lifetimeMinutes)))
  }

  static let me = Request<User>(path: "auth/me", requiresAuth: true)

  /// Best effort on the way out: one attempt, a short deadline.
  static let logout = Request<EmptyResponse>(
    path: "auth/logout", method: .post, requiresAuth: true, retryPolicy: RetryPolicy.none,
    deadline: .seconds(5))
}
