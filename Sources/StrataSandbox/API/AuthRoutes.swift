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

  /// Lifetimes: `expiresInSeconds` (sandbox extension) wins over `expiresInMins` (default 60);
  /// nil when longer than DummyJSON's maximum of 43,200 minutes (30 days).
  private static func accessLifetime(_ body: [String: Any]) -> TimeInterval? {
    var seconds: TimeInterval = 3600
    if let value = (body["expiresInSeconds"] as? NSNumber)?.doubleValue, value > 0 {
      seconds = value
    } else if let minutes = (body["expiresInMins"] as? NSNumber)?.doubleValue, minutes > 0 {
      seconds = minutes * 60
    }
    return seconds.isFinite && seconds <= maxLifetime ? seconds : nil
  }

  private static let maxLifetime: TimeInterval = 43_200 * 60

  /// DummyJSON's answer to a lifetime over its maximum.
  private static let lifetimeTooLong = SandboxResponse.message(
    500, "Maximum access token expire time can be 43200 minutes")

  private static let refreshLifetime: TimeInterval = 30 * 24 * 3600

  private func login(_ request: SandboxRequest) -> SandboxResponse {
    guard let body = request.jsonObject, let username = body["username"] as? String,
      let password = body["password"] as? String
    else { return .message(400, "Username and password required") }
    guard let user = seed.users.first(where: { $0.username == username }),
      seed.passwords[username] == password
    else { return .message(400, "Invalid credentials") }
    guard let lifetime = Self.accessLifetime(body) else { return Self.lifetimeTooLong }
    let pair = tokens.issue(
      userID: user.id, accessLifetime: lifetime,
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
    guard let lifetime = Self.accessLifetime(body) else { return Self.lifetimeTooLong }
    let pair = tokens.issue(
      userID: userID, accessLifetime: lifetime,
      refreshLifetime: Self.refreshLifetime)
    return .json(200, object: ["accessToken": pair.access, "refreshToken": pair.refresh])
  }
}
