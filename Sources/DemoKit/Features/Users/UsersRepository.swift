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
  func fetchPage(limit: Int, skip: Int, refresh: Bool) async throws -> NetworkResponse<Page<User>>
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
  public func fetchPage(limit: Int, skip: Int, refresh: Bool) async throws -> NetworkResponse<
    Page<User>
  > {
    NetworkResponse(try await page(limit: limit, skip: skip))
  }
}

// MARK: - Live implementation

/// ``UsersRepository`` over DummyJSON, with one cache: the service's HTTP cache, asked to take
/// an answer as fresh for `ttl` (DummyJSON names no lifetime), so a repeated read within it
/// sends nothing and says so (``ResponseSource/cache(age:)``). A rename makes the reads of the
/// next `ttl` ask the server (a 304 when nothing changed), since a kept page may name the old
/// name; a refresh asks it at once.
public final class APIUsersRepository: UsersRepository {
  private let network: any Networking
  private let ttl: Duration
  private let signedIn: Bool
  private let now: @Sendable () -> Date
  /// Until when reads ask the server after a change of ours.
  private let askUntil = Locked(Date.distantPast)

  /// - Parameter network: The networking layer (its HTTP cache is the one this uses).
  /// - Parameter ttl: How long an answer is used without asking (default 60 s).
  /// - Parameter signedIn: Read through DummyJSON's authenticated routes (`/auth/users…`), which
  ///   need a session, instead of the public ones (the HTTP cache keeps such answers for the
  ///   signed-in account alone).
  /// - Parameter now: Wall-clock time (tests inject their own).
  public init(
    network: any Networking, ttl: Duration = .seconds(60), signedIn: Bool = false,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    (self.network, self.ttl, self.signedIn, self.now) = (network, ttl, signedIn, now)
  }

  /// A page of users.
  public func page(limit: Int, skip: Int) async throws -> Page<User> {
    try await fetchPage(limit: limit, skip: skip, refresh: false).value
  }

  /// A page and where it came from; `refresh` asks the server (a 304 when nothing changed).
  public func fetchPage(limit: Int, skip: Int, refresh: Bool) async throws -> NetworkResponse<
    Page<User>
  > {
    try await network.send(read(Page<User>.request(limit, skip), refresh: refresh))
  }

  /// Users matching a query.
  public func search(_ query: String, limit: Int, skip: Int) async throws -> Page<User> {
    try await network.send(
      read(UserRequests.search(query, limit: limit, skip: skip), refresh: false)
    ).value
  }

  public func user(id: Int) async throws -> User {
    try await network.send(read(UserRequests.get(id: id), refresh: false)).value
  }

  /// Renames a user; the reads of the next `ttl` ask the server.
  public func rename(id: Int, firstName: String) async throws -> User {
    let updated = try await network.send(
      scoped(UserRequests.update(id: id, firstName: firstName))
    ).value
    let seconds = Double(ttl.components.seconds) + Double(ttl.components.attoseconds) / 1e18
    askUntil.withLock { $0 = now().addingTimeInterval(seconds) }
    return updated
  }

  /// `request` as this repository reads: fresh for `ttl`, or asking the server after a change
  /// of ours or when refreshing.
  private func read<Response>(_ request: Request<Response>, refresh: Bool) -> Request<Response> {
    var read = scoped(request)
    let changed = askUntil.withLock { $0 } > now()
    read.cachePolicy = refresh || changed ? .revalidate : .freshFor(ttl)
    return read
  }

  /// The request itself, or its `/auth/…` twin when reads need a session.
  private func scoped<Response>(_ request: Request<Response>) -> Request<Response> {
    guard signedIn else { return request }
    var authenticated = request
    authenticated.path = "auth/" + request.path
    authenticated.requiresAuth = true
    return authenticated
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
    Request(path: "users/\(id)", method: .put, body: .json(NameChange(firstName: firstName)))
  }
}
