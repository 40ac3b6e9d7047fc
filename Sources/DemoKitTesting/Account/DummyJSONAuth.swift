import Strata

/// DummyJSON's sign-in and refresh calls as request values, for the sandbox's demo account:
/// what integration tests and benchmarks send to get and renew tokens. (An app's own account
/// feature has its own; these keep the tests from writing them again each time.)
public enum DummyJSONAuth {
  /// The tokens a login or refresh answers with.
  public struct Tokens: Codable, Sendable, Equatable {
    public let accessToken: String
    public let refreshToken: String

    /// Tokens as a test forges or stores them.
    public init(accessToken: String, refreshToken: String) {
      (self.accessToken, self.refreshToken) = (accessToken, refreshToken)
    }
  }

  private struct LoginBody: Encodable, Sendable {
    let username: String
    let password: String
    let expiresInMins: Int?
    let expiresInSeconds: Int?
  }

  private struct RefreshBody: Encodable, Sendable { let refreshToken: String }

  /// `POST /auth/login`; `expiresInSeconds` is the sandbox's extension for short-lived tokens.
  public static func login(
    username: String = "emilys", password: String = "emilyspass", expiresInMins: Int? = nil,
    expiresInSeconds: Int? = nil
  ) -> Request<Tokens> {
    Request(
      path: "auth/login", method: .post,
      body: .json(
        LoginBody(
          username: username, password: password, expiresInMins: expiresInMins,
          expiresInSeconds: expiresInSeconds)))
  }

  /// `POST /auth/refresh` with the refresh token in the body.
  public static func refresh(_ refreshToken: String) -> Request<Tokens> {
    Request(
      path: "auth/refresh", method: .post, body: .json(RefreshBody(refreshToken: refreshToken)))
  }
}
