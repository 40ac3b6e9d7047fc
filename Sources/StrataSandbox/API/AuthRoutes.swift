import Foundation

extension SandboxAPI {
  /// `POST /auth/login`, `GET /auth/me`, `POST /auth/refresh`, with DummyJSON's messages.
  mutating func addAuthRoutes() {
    let api = self
    route("POST", "/auth/login") { request, _ in api.login(request) }
    route("GET", "/auth/me") { request, _ in
      switch api.authenticate(request) {
      case .success(let user):
        let index = user.id - 1
        return api.encodedUsers.indices.contains(index)
          ? .json(200, api.encodedUsers[index]) : .message(404, "User not found")
      case .failure(let rejection): return rejection.response
      }
    }
    route("POST", "/auth/refresh") { request, _ in api.refresh(request) }
  }

  /// Lifetimes: `expiresInSeconds` (sandbox extension) wins over `expiresInMins` (default 60).
  private static func accessLifetime(_ body: [String: Any]) -> TimeInterval {
    if let seconds = (body["expiresInSeconds"] as? NSNumber)?.doubleValue, seconds > 0 {
      return seconds
    }
    if let minutes = (body["expiresInMins"] as? NSNumber)?.doubleValue, minutes > 0 {
      return minutes * 60
    }
    return 3600
  }

  private static let refreshLifetime: TimeInterval = 30 * 24 * 3600

  private func login(_ request: SandboxRequest) -> SandboxResponse {
    guard let body = request.jsonObject, let username = body["username"] as? String,
      let password = body["password"] as? String
    else { return .message(400, "Username and password required") }
    guard let user = seed.users.first(where: { $0.username == username }),
      seed.passwords[username] == password
    else { return .message(400, "Invalid credentials") }
    let pair = tokens.issue(
      userID: user.id, accessLifetime: Self.accessLifetime(body),
      refreshLifetime: Self.refreshLifetime)
    return .json(
      200,
      object: [
        "id": user.id, "username": user.username, "email": user.email, "firstName": user.firstName,
        "lastName": user.lastName, "gender": user.gender, "image": user.image,
        "accessToken": pair.access, "refreshToken": pair.refresh,
      ])
  }

  private func refresh(_ request: SandboxRequest) -> SandboxResponse {
    let body = request.jsonObject ?? [:]
    guard let token = body["refreshToken"] as? String, !token.isEmpty else {
      return .message(401, "Refresh token required")
    }
    guard case .valid(let userID) = tokens.redeemRefresh(token) else {
      return .message(403, "Invalid refresh token")
    }
    let pair = tokens.issue(
      userID: userID, accessLifetime: Self.accessLifetime(body),
      refreshLifetime: Self.refreshLifetime)
    return .json(200, object: ["accessToken": pair.access, "refreshToken": pair.refresh])
  }
}
