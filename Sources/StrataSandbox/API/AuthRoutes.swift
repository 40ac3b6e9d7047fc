import Foundation

extension SandboxAPI {
  /// `POST /auth/login`, `GET /auth/me`, `POST /auth/refresh`, `POST /auth/logout`, with the
  /// real service's validation, messages and cookies.
  mutating func addAuthRoutes() {
    let api = self
    route("POST", "/auth/login") { call in try api.login(call.request) }
    route("POST", "/auth/refresh") { call in try api.refresh(call.request) }
    route("GET", "/auth/me") { call in
      switch api.authenticate(call.request) {
      case .success(let user): .json(200, api.encodedUsers[user.id - 1])
      case .failure(let rejection): rejection.response
      }
    }
    route("POST", "/auth/logout") { call in
      switch api.authenticate(call.request) {
      case .success:
        var response = SandboxResponse.message(200, "Logged out successfully")
        response.headers += ["accessToken", "refreshToken"].map {
          ("Set-Cookie", "\($0)=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure")
        }
        return response
      case .failure(let rejection): return rejection.response
      }
    }
  }

  /// DummyJSON's longest access-token lifetime: 43,200 minutes (30 days); refresh
  /// tokens always get it.
  static let maxLifetimeMinutes = 43_200

  /// The answer to a lifetime outside 1…43,200 minutes (a 500, as the real service sends).
  private static var lifetimeTooLong: Rejection {
    Rejection(500, "Maximum access token expire time can be \(maxLifetimeMinutes) minutes")
  }

  /// The access-token lifetime in seconds a body asks for: `expiresInMins` (1…43,200, default
  /// 60; a login treats a falsy value as the default of the token library, the maximum), or
  /// the sandbox-only extension `expiresInSeconds` (1…2,592,000), which wins when present.
  private static func lifetime(_ body: [String: Any], login: Bool) throws(Rejection)
    -> TimeInterval
  {
    let maxSeconds = Double(maxLifetimeMinutes * 60)
    if let value = body["expiresInSeconds"] {
      guard let seconds = number(value), seconds >= 1, seconds <= maxSeconds else {
        throw lifetimeTooLong
      }
      return seconds
    }
    guard let value = body["expiresInMins"] else { return 3_600 }
    if login, isFalsy(value) { return maxSeconds }
    guard let minutes = number(value), minutes >= 1, minutes <= Double(maxLifetimeMinutes) else {
      throw lifetimeTooLong
    }
    return minutes * 60
  }

  /// JavaScript's `Number(value)` for the JSON values a client sends; nil for NaN.
  private static func number(_ value: Any) -> Double? {
    if let text = value as? String {
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      return trimmed.isEmpty ? 0 : Double(trimmed).flatMap { $0.isFinite ? $0 : nil }
    }
    if let number = value as? NSNumber {
      return number.doubleValue.isFinite ? number.doubleValue : nil
    }
    return value is NSNull ? 0 : nil
  }

  private static func isFalsy(_ value: Any) -> Bool {
    switch value {
    case is NSNull: true
    case let text as String: text.isEmpty
    case let number as NSNumber: number.doubleValue == 0 || number.doubleValue.isNaN
    default: false
    }
  }

  private func login(_ request: SandboxRequest) throws(Rejection) -> SandboxResponse {
    let body = Self.body(request)
    guard let username = body["username"], let password = body["password"], !Self.isFalsy(username),
      !Self.isFalsy(password)
    else { throw Rejection(400, "Username and password required") }
    guard let name = username as? String else { throw Rejection(400, "Username is not valid") }
    let lifetime = try Self.lifetime(body, login: true)
    guard
      let user = seed.users.first(where: {
        $0.username.lowercased() == name.lowercased() && $0.password == password as? String
      })
    else { throw Rejection(400, "Invalid credentials") }
    let pair = tokens.issue(
      payload: user.tokenPayload, accessLifetime: lifetime,
      refreshLifetime: Double(Self.maxLifetimeMinutes * 60))
    var object = user.tokenPayload
    object["accessToken"] = pair.access
    object["refreshToken"] = pair.refresh
    return SandboxResponse.json(200, object: object).settingTokenCookies(
      pair, maxAge: Int(lifetime), now: tokens.now())
  }

  private func refresh(_ request: SandboxRequest) throws(Rejection) -> SandboxResponse {
    let body = Self.body(request)
    let given = (body["refreshToken"] as? String).flatMap { $0.isEmpty ? nil : $0 }
    guard let token = given ?? request.cookie("refreshToken"), !token.isEmpty else {
      throw Rejection(401, "Refresh token required")
    }
    let lifetime = try Self.lifetime(body, login: false)
    guard case .success(let claims) = tokens.redeemRefresh(token) else {
      throw Rejection(403, "Invalid refresh token")
    }
    guard let subject = TokenIssuer.Subject(claims), let user = user(named: subject) else {
      throw Rejection(403, "Refresh token expired")
    }
    let pair = tokens.issue(
      payload: user.tokenPayload, accessLifetime: lifetime,
      refreshLifetime: Double(Self.maxLifetimeMinutes * 60))
    return SandboxResponse.json(
      200, object: ["accessToken": pair.access, "refreshToken": pair.refresh]
    ).settingTokenCookies(pair, maxAge: Int(lifetime), now: tokens.now())
  }
}

extension SandboxResponse {
  /// With `accessToken` and `refreshToken` cookies as Express sets them (HttpOnly, Secure).
  func settingTokenCookies(_ pair: (access: String, refresh: String), maxAge: Int, now: Date)
    -> SandboxResponse
  {
    var response = self
    let expires = Self.httpDate(now.addingTimeInterval(TimeInterval(maxAge)))
    for (name, value) in [("accessToken", pair.access), ("refreshToken", pair.refresh)] {
      response.headers.append(
        (
          "Set-Cookie",
          "\(name)=\(value); Max-Age=\(maxAge); Path=/; Expires=\(expires); HttpOnly; Secure"
        ))
    }
    return response
  }

  /// With both token cookies cleared, as the real service answers a failed authentication.
  func clearingTokenCookies() -> SandboxResponse {
    var response = self
    for name in ["accessToken", "refreshToken"] {
      response.headers.append(
        ("Set-Cookie", "\(name)=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT"))
    }
    return response
  }

  /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
  static func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }
}
