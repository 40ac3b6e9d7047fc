import Foundation

/// The DummyJSON-compatible API: seeded data, tokens and the routes over them, answering as
/// the real service does (statuses, messages, cookies, validation, redirects, its HTML
/// not-found page, ETags and gzip). Handlers are plain functions of a request value; the
/// socket code never sees them.
struct SandboxAPI: Sendable {
  let seed: SeedData
  let tokens: TokenIssuer
  /// Each record pre-encoded once, so list pages are assembled, not re-encoded.
  let encodedUsers: [Data]
  let encodedPosts: [Data]
  let encodedTodos: [Data]
  let encodedComments: [Data]
  /// The writes kept, while `keepsWrites` is on (off: none, as on DummyJSON).
  let kept: KeptWrites
  private(set) var router = Router()

  init(
    seed: SeedData = .standard, now: @escaping @Sendable () -> Date,
    rotatesRefreshTokens: Bool = false, signingKey: [UInt8]? = nil, keepsWrites: Bool = false
  ) {
    self.seed = seed
    self.kept = KeptWrites(on: keepsWrites)
    self.tokens = TokenIssuer(
      now: now, rotatesRefreshTokens: rotatesRefreshTokens, secret: signingKey)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    func encode<T: Encodable>(_ items: [T]) -> [Data] {
      items.map { (try? encoder.encode($0)) ?? Data("{}".utf8) }
    }
    encodedUsers = encode(seed.users)
    encodedPosts = encode(seed.posts)
    encodedTodos = encode(seed.todos)
    encodedComments = encode(seed.comments)
    addAuthRoutes()
    addUserRoutes()
    addPostRoutes()
    addTodoRoutes()
    addCommentRoutes()
    addHTTPStatusRoutes()
    addIconRoutes()
  }

  /// Answers a request, as the real service's middleware chain does: an `OPTIONS` preflight
  /// is answered first; a trailing slash is redirected, the query validated,
  /// `/auth/<resource>…` (other than the auth routes) served after checking the token, an
  /// unknown route gets the HTML not-found page; then the answer gets its ETag (a matching
  /// `If-None-Match` → 304), is gzipped when the client accepts it, and gets the CORS headers.
  func handle(_ request: SandboxRequest) -> SandboxResponse {
    guard request.method != "OPTIONS" else { return CrossOrigin.preflight(request) }
    let coded = ContentCoding.finish(route(request), for: request)
    return CrossOrigin.finish(ByteRanges.apply(coded, for: request), for: request)
  }

  private func route(_ request: SandboxRequest) -> SandboxResponse {
    if request.path.count > 1, request.path.hasSuffix("/") {
      return Self.redirectWithoutTrailingSlash(request)
    }
    let options: QueryOptions
    do { options = try QueryOptions(request) } catch { return error.response }
    if let answer = router.handle(request, options: options) { return answer }
    let protectedPrefix = "/auth/"
    if request.path.hasPrefix(protectedPrefix) {
      if case .failure(let rejection) = authenticate(request) { return rejection.response }
      let inner = SandboxRequest(
        method: request.method, path: String(request.path.dropFirst(protectedPrefix.count - 1)),
        query: request.query, headers: request.headers, body: request.body,
        receivedAt: request.receivedAt)
      return router.handle(inner, options: options) ?? Self.notFound(request)
    }
    return Self.notFound(request)
  }

  mutating func route(_ method: String, _ pattern: String, _ handler: @escaping Router.Handler) {
    router.add(method, pattern, handler)
  }

  // MARK: Answers the middleware gives

  /// `301` to the same path without its trailing slash (and runs of `/` collapsed), query kept.
  private static func redirectWithoutTrailingSlash(_ request: SandboxRequest) -> SandboxResponse {
    var path = String(request.path.dropLast())
    while path.contains("//") { path = path.replacingOccurrences(of: "//", with: "/") }
    var components = URLComponents()
    components.path = path
    if !request.query.isEmpty {
      components.queryItems = request.query.map { URLQueryItem(name: $0.name, value: $0.value) }
    }
    let location = components.string ?? path
    return SandboxResponse(
      status: 301,
      headers: [("Location", location), ("Content-Type", "text/plain; charset=utf-8")],
      body: Data("Moved Permanently. Redirecting to \(location)".utf8))
  }

  /// The real service's not-found answers: its HTML page for a `GET`, Express's
  /// "Cannot METHOD /path" page for other methods.
  static func notFound(_ request: SandboxRequest) -> SandboxResponse {
    let html: String
    if request.method == "GET" || request.method == "HEAD" {
      html = """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="UTF-8" /><title>Page not found — DummyJSON</title></head>
        <body><main class="page-404" role="main"><h1>404</h1><p>Page not found</p></main></body>
        </html>
        """
    } else {
      let path = request.path.replacingOccurrences(of: "&", with: "&amp;")
        .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
      html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>Error</title>
        </head>
        <body>
        <pre>Cannot \(request.method) \(path)</pre>
        </body>
        </html>
        """
    }
    return SandboxResponse(
      status: 404, headers: [("Content-Type", "text/html; charset=utf-8")], body: Data(html.utf8))
  }

  // MARK: Shared helpers

  /// The user an access token (header, with or without `Bearer `, else the `accessToken`
  /// cookie) belongs to, or the real service's answer, which also clears the token cookies.
  func authenticate(_ request: SandboxRequest) -> Result<SandboxUser, Rejection> {
    let rejection: SandboxResponse
    if let token = request.accessToken {
      switch tokens.checkAccess(token) {
      case .success(let claims):
        if let subject = TokenIssuer.Subject(claims), let user = user(named: subject) {
          return .success(user)
        }
        rejection = .message(400, "Invalid access token")
      case .failure(.expired): rejection = .message(401, "Token Expired!")
      case .failure(.malformed): rejection = .message(401, "Invalid/Expired Token!")
      case .failure(let failure): rejection = .message(500, failure.message)
      }
    } else {
      rejection = .message(401, "Access Token is required")
    }
    return .failure(Rejection(rejection.clearingTokenCookies()))
  }

  /// The user with this id and (case-insensitively) this username.
  func user(named subject: TokenIssuer.Subject) -> SandboxUser? {
    guard seed.users.indices.contains(subject.id - 1) else { return nil }
    let user = seed.users[subject.id - 1]
    return user.username.lowercased() == subject.username.lowercased() ? user : nil
  }

  /// The record a path id names: 400 "Invalid <kind> id 'x'" when not a number, 404
  /// "<Label> with id 'x' not found" when there is none.
  /// The record `text` names in `resource`, as ``lookUp(_:in:kind:label:)`` finds it, a kept
  /// write first (a kept deletion: the same 404).
  func stored(_ resource: String, _ text: String, in items: [Data], kind: String, label: String)
    throws(Rejection) -> Data
  {
    switch kept.record(resource, text) {
    case .some(.some(let record)): return record
    case .some(.none): throw Rejection(404, "\(label) with id '\(text)' not found")
    case .none: return try Self.lookUp(text, in: items, kind: kind, label: label)
    }
  }

  static func lookUp(_ text: String, in items: [Data], kind: String, label: String)
    throws(Rejection) -> Data
  {
    guard !text.isEmpty else { throw Rejection(400, "\(label) id is required") }
    guard JavaScriptNumber.number(text) != nil else {
      throw Rejection(400, "Invalid \(kind) id '\(text)'")
    }
    // The service compares the text with each id's `toString()`: `01`, `1.0` and `0x1` are
    // numbers but no record's id.
    guard let id = Int(text), String(id) == text, id >= 1, id <= items.count else {
      throw Rejection(404, "\(label) with id '\(text)' not found")
    }
    return items[id - 1]
  }

  /// A JSON body as an object; a missing or non-object body reads as `{}`, as Express's
  /// body parser leaves it.
  static func body(_ request: SandboxRequest) -> [String: Any] { request.jsonObject ?? [:] }
}
