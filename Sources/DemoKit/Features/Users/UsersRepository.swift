import Foundation
import Strata

/// Users: pages, search, one by id, and edits (which invalidate the cache).
public protocol UsersRepository: Sendable {
  /// A page of users.
  func page(limit: Int, skip: Int) async throws -> Page<User>
  /// A page of users and where it came from (``ResponseSource``: the network, the HTTP
  /// cache, a 304, or a stale answer standing in while the server is away). `refresh` asks
  /// the server — past the repository's copy and the HTTP cache's fresh one — as a
  /// pull-to-refresh must.
  func fetchPage(limit: Int, skip: Int, refresh: Bool) async throws -> Fetched<Page<User>>
  /// Users matching a query.
  /// - Parameter query: Text to find in names, username or e-mail.
  /// - Parameter limit: Page size.
  func search(_ query: String, limit: Int, skip: Int) async throws -> Page<User>
  /// - Throws: `NetworkError` (`.server(404)` with the server's message when absent).
  func user(id: Int) async throws -> User
  /// Changes a user's name and forgets cached users.
  func rename(id: Int, firstName: String) async throws -> User
}

extension UsersRepository {
  /// A repository that keeps nothing (a fake, a test double): every page is the network's.
  public func fetchPage(limit: Int, skip: Int, refresh: Bool) async throws -> Fetched<Page<User>> {
    Fetched(value: try await page(limit: limit, skip: skip), source: .network)
  }
}

// MARK: - Live implementation

/// ``UsersRepository`` over DummyJSON with a TTL cache: a repeated read within the TTL sends nothing;
/// an edit clears the cache.
public final class APIUsersRepository: UsersRepository {
  private let network: any Networking
  private let pages: TTLCache<String, Fetched<Page<User>>>
  private let users: TTLCache<String, User>
  private let signedIn: Bool
  private let account: @Sendable () async -> String?

  /// - Parameter network: The networking layer.
  /// - Parameter ttl: How long responses stay cached (default 60 s).
  /// - Parameter signedIn: Read through DummyJSON's authenticated routes (`/auth/users…`), which
  ///   need a session, instead of the public ones.
  /// - Parameter account: Who is signed in (the session's ``AuthSession/account()``): what a
  ///   signed-in read keeps here is that account's alone, never served to the next one.
  /// - Parameter now: Wall-clock time (tests inject their own).
  public init(
    network: any Networking, ttl: Duration = .seconds(60), signedIn: Bool = false,
    account: @escaping @Sendable () async -> String? = { nil },
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.network = network
    self.signedIn = signedIn
    self.account = account
    self.pages = TTLCache(ttl: ttl, now: now)
    self.users = TTLCache(ttl: ttl, now: now)
  }

  /// A page of users (cached).
  public func page(limit: Int, skip: Int) async throws -> Page<User> {
    try await fetchPage(limit: limit, skip: skip, refresh: false).value
  }

  /// A page and its source; `refresh` forgets the pages kept here and revalidates with the
  /// server. A stale answer (the server away) is shown but not kept: the next read asks again.
  public func fetchPage(limit: Int, skip: Int, refresh: Bool) async throws -> Fetched<Page<User>> {
    var request = scoped(Page<User>.request(limit, skip))
    if refresh {
      request.cachePolicy = .revalidate
      await pages.removeAll()
    }
    let network = self.network
    let key = await keyed("list:\(limit):\(skip)")
    let (fetched, cached) = try await pages.value(for: key) { [request] in
      try await network.fetch(request)
    }
    if cached { Log.networking.debug("users: \(key) from cache") }
    if case .stale = fetched.source { await pages.removeAll() }
    return fetched
  }

  /// Users matching a query (cached).
  public func search(_ query: String, limit: Int, skip: Int) async throws -> Page<User> {
    try await cachedPage(
      await keyed("search:\(query):\(limit):\(skip)"),
      scoped(UserRequests.search(query, limit: limit, skip: skip)))
  }

  public func user(id: Int) async throws -> User {
    let network = self.network
    let request = scoped(UserRequests.get(id: id))
    let (user, cached) = try await users.value(for: await keyed("user:\(id)")) {
      try await network.send(request)
    }
    if cached { Log.networking.debug("users: user \(id) from cache") }
    return user
  }

  /// Renames a user and clears the cache.
  public func rename(id: Int, firstName: String) async throws -> User {
    let updated = try await network.send(
      scoped(UserRequests.update(id: id, firstName: firstName)))
    await pages.removeAll()
    await users.removeAll()
    return updated
  }

  /// `name` as a key of what is kept here: a signed-in read's is the account's own.
  private func keyed(_ name: String) async -> String {
    guard signedIn else { return name }
    return "\(await account() ?? "") \(name)"
  }

  /// The request itself, or its `/auth/…` twin when reads need a session.
  private func scoped<Response>(_ request: Request<Response>) -> Request<Response> {
    guard signedIn else { return request }
    var authenticated = request
    authenticated.path = "auth/" + request.path
    authenticated.requiresAuth = true
    return authenticated
  }

  private func cachedPage<E: Endpoint>(_ key: String, _ endpoint: E) async throws -> Page<User>
  where E.Response == Page<User> {
    let network = self.network
    let (page, cached) = try await pages.value(for: key) {
      Fetched(value: try await network.send(endpoint), source: .network)
    }
    if cached { Log.networking.debug("users: \(key) from cache") }
    return page.value
  }
}

// MARK: - Requests

private enum UserRequests {
  private struct NameChange: Encodable, Sendable { let firstName: String }

  static func search(_ query: String, limit: Int, skip: Int) -> Request<Page<User>> {
    Request(
      path: "users/search",
      query: ["q": query, "limit": String(limit), "skip": String(skip)])
  }

  static func get(id: Int) -> Request<User> { Request(path: "users/\(id)") }

  /// `PUT /users/{id}` with the changed field only.
  static func update(id: Int, firstName: String) -> Request<User> {
    Request(path: "users/\(id)", method: .put, body: NameChange(firstName: firstName))
  }
}
