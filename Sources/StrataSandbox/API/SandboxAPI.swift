import Foundation

/// The DummyJSON-compatible API: seeded data, tokens and the routes over them. Handlers are
/// plain functions of a request value; the socket code never sees them.
struct SandboxAPI: Sendable {
  let seed: SeedData
  let tokens: TokenIssuer
  /// Each user pre-encoded once, so list pages are assembled, not re-encoded.
  let encodedUsers: [Data]
  let encodedPosts: [Data]
  let encodedTodos: [Data]
  private(set) var router = Router()

  init(
    seed: SeedData = .standard, now: @escaping @Sendable () -> Date,
    rotatesRefreshTokens: Bool = false
  ) {
    self.seed = seed
    self.tokens = TokenIssuer(now: now, rotatesRefreshTokens: rotatesRefreshTokens)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encodedUsers = seed.users.map { (try? encoder.encode($0)) ?? Data("{}".utf8) }
    encodedPosts = seed.posts.map { (try? encoder.encode($0)) ?? Data("{}".utf8) }
    encodedTodos = seed.todos.map { (try? encoder.encode($0)) ?? Data("{}".utf8) }
    addAuthRoutes()
    addUserRoutes()
    addPostRoutes()
    addTodoRoutes()
    addHTTPRoutes()
  }

  /// Routes a request. `/auth/<resource>…` (other than login, refresh and me) serves the public
  /// resource after checking the bearer token, as DummyJSON does.
  func handle(_ request: SandboxRequest) -> SandboxResponse {
    let protectedPrefix = "/auth/"
    if request.path.hasPrefix(protectedPrefix),
      !["/auth/login", "/auth/refresh", "/auth/me"].contains(request.path)
    {
      if case .failure(let rejection) = authenticate(request) { return rejection.response }
      let inner = SandboxRequest(
        method: request.method, path: String(request.path.dropFirst(protectedPrefix.count - 1)),
        query: request.query, headers: request.headers, body: request.body,
        receivedAt: request.receivedAt)
      return router.handle(inner)
    }
    return router.handle(request)
  }

  mutating func route(_ method: String, _ pattern: String, _ handler: @escaping Router.Handler) {
    router.add(method, pattern, handler)
  }

  // MARK: Shared helpers

  /// The user a bearer token belongs to, or DummyJSON's 401 answer.
  func authenticate(_ request: SandboxRequest) -> Result<SandboxUser, Rejection> {
    guard let token = request.bearerToken else {
      return .failure(Rejection(.message(401, "Access Token is required")))
    }
    switch tokens.checkAccess(token) {
    case .valid(let userID):
      guard let user = seed.users.first(where: { $0.id == userID }) else {
        return .failure(Rejection(.message(401, "Invalid/Expired Token!")))
      }
      return .success(user)
    case .expired: return .failure(Rejection(.message(401, "Token Expired!")))
    case .invalid: return .failure(Rejection(.message(401, "Invalid/Expired Token!")))
    }
  }

  /// A response carried as an error, so guard-style handlers read top to bottom.
  struct Rejection: Error {
    let response: SandboxResponse
    init(_ response: SandboxResponse) { self.response = response }
  }

  /// `{"<key>":[…],"total":…,"skip":…,"limit":…}` from pre-encoded items, with `limit`
  /// (default 30, 0 = all), `skip` and `select` as DummyJSON applies them.
  static func page(_ key: String, _ items: [Data], request: SandboxRequest) -> SandboxResponse {
    let total = items.count
    guard let skip = count("skip", in: request, default: 0),
      let requested = count("limit", in: request, default: 30)
    else {
      return .message(400, "limit and skip must be whole numbers from 0 to \(Int.max)")
    }
    let limit = requested == 0 ? total : requested
    let start = min(skip, total)
    let slice = Array(items[start..<(start + min(limit, total - start))])
    let selected = request.queryValue("select").map { select(slice, fields: $0) } ?? slice
    var body = Data("{\"\(key)\":[".utf8)
    for (index, item) in selected.enumerated() {
      if index > 0 { body.append(UInt8(ascii: ",")) }
      body.append(item)
    }
    body.append(
      contentsOf: Array("],\"total\":\(total),\"skip\":\(start),\"limit\":\(selected.count)}".utf8))
    return .json(200, body)
  }

  /// A non-negative whole-number query parameter: digits only (no sign, no spaces), at most
  /// `Int.max`; nil for anything else. Absent → `defaultValue`.
  static func count(_ name: String, in request: SandboxRequest, default defaultValue: Int) -> Int? {
    guard let text = request.queryValue(name) else { return defaultValue }
    return HTTPRequestParser.digits(text)
  }

  /// Keeps `id` plus the comma-separated fields of each encoded object.
  static func select(_ items: [Data], fields: String) -> [Data] {
    let wanted = Set(
      fields.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } + ["id"])
    return items.map { item in
      guard let object = (try? JSONSerialization.jsonObject(with: item)) as? [String: Any] else {
        return item
      }
      let filtered = object.filter { wanted.contains($0.key) }
      return
        (try? JSONSerialization.data(
          withJSONObject: filtered, options: [.sortedKeys, .withoutEscapingSlashes])) ?? item
    }
  }

  /// Merges a JSON body into an encoded record (PUT/PATCH), keeping `id`.
  static func merge(_ item: Data, with request: SandboxRequest) -> SandboxResponse {
    guard var object = (try? JSONSerialization.jsonObject(with: item)) as? [String: Any] else {
      return .message(500, "Corrupt record")
    }
    guard let update = request.jsonObject else {
      return .message(400, "Body must be a JSON object")
    }
    for (key, value) in update where key != "id" { object[key] = value }
    return .json(200, object: object)
  }

  /// A path id that must be a positive integer.
  static func id(_ text: String?, kind: String) -> Result<Int, Rejection> {
    guard let text, let id = Int(text), id > 0 else {
      return .failure(Rejection(.message(400, "Invalid \(kind) id '\(text ?? "")'")))
    }
    return .success(id)
  }
}
