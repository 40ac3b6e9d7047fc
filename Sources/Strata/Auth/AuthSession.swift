import Foundation

/// The signed-in session: holds credentials, hands access tokens to `NetworkService`, and
/// renews them — once for any number of concurrent 401s (single flight), proactively when
/// the expiry is near, never in a loop — signing out when the server rejects the refresh.
///
/// The refresh itself is an injected function (usually `AuthRepo.refresh`), so the session
/// does not depend on the networking instance that depends on it.
public actor AuthSession: Authenticator {
  /// Exchanges a refresh token for new credentials.
  public typealias Refresh = @Sendable (_ refreshToken: String) async throws -> Credentials

  /// Tuning of refresh behaviour.
  public struct Options: Sendable {
    /// Refresh before use when the access token expires within this.
    public var expirySkew: Duration
    /// At most this many refreshes …
    public var maxRefreshes: Int
    /// … within this window; more means the server rejects every new token: sign out.
    public var refreshWindow: Duration

    /// Creates options.
    /// - Parameters:
    ///   - expirySkew: Proactive refresh margin (default 30 s).
    ///   - maxRefreshes: Refresh-loop limit (default 5).
    ///   - refreshWindow: Refresh-loop window (default 30 s).
    public init(
      expirySkew: Duration = .seconds(30), maxRefreshes: Int = 5,
      refreshWindow: Duration = .seconds(30)
    ) {
      self.expirySkew = expirySkew
      self.maxRefreshes = maxRefreshes
      self.refreshWindow = refreshWindow
    }
  }

  private let store: any TokenStore
  private var refresher: Refresh?
  private let options: Options
  private let clock: any NetworkClock
  private let now: @Sendable () -> Date
  private let broadcaster = EventBroadcaster<AuthEvent>()
  private var credentials: Credentials?
  private var refreshTask: Task<Credentials, any Error>?
  private var refreshTimes: [Duration] = []
  /// Bumped by sign-in and sign-out, so a refresh that finishes afterwards is discarded.
  private var generation = 0
  /// How many refresh calls were made (for diagnostics and tests).
  public private(set) var refreshCount = 0

  /// Creates a session, restoring credentials from `store`.
  /// - Parameters:
  ///   - store: Where credentials persist.
  ///   - options: Refresh tuning.
  ///   - clock: Time for the refresh-loop guard.
  ///   - now: Wall-clock time for token expiry.
  ///   - refresh: The refresh call (may be set later with ``setRefresh(_:)``).
  public init(
    store: any TokenStore, options: Options = Options(),
    clock: any NetworkClock = SystemNetworkClock(),
    now: @escaping @Sendable () -> Date = { Date() }, refresh: Refresh? = nil
  ) {
    self.store = store
    self.options = options
    self.clock = clock
    self.now = now
    self.refresher = refresh
    do {
      credentials = try store.load()
    } catch {
      Log.auth.warning("could not restore the session: \(error)")
      credentials = nil
    }
  }

  /// Installs the refresh call (for wiring after construction).
  /// - Parameter refresh: The refresh call.
  public func setRefresh(_ refresh: @escaping Refresh) { refresher = refresh }

  // MARK: State

  /// Whether credentials are held.
  public var isSignedIn: Bool { credentials != nil }

  /// When the access token expires, if known.
  public var expiresAt: Date? { credentials?.expiresAt }

  /// A new stream of session changes; each subscriber gets its own.
  /// - Returns: The stream.
  public nonisolated func events() -> AsyncStream<AuthEvent> { broadcaster.stream() }

  /// Stores credentials after a login.
  /// - Parameter credentials: The new credentials.
  /// - Throws: When the store cannot save them.
  public func signIn(_ credentials: Credentials) throws {
    try store.save(credentials)
    self.credentials = credentials
    generation += 1
    refreshTimes.removeAll()
    Log.auth.notice("signed in")
    broadcaster.yield(.signedIn)
  }

  /// Forgets the credentials.
  public func signOut() { signOut(.requested) }

  private func signOut(_ reason: SignOutReason) {
    guard credentials != nil else { return }
    credentials = nil
    generation += 1
    do { try store.clear() } catch {
      Log.auth.error("could not clear stored credentials: \(error)")
    }
    Log.auth.notice("signed out (\(String(describing: reason)))")
    broadcaster.yield(.signedOut(reason))
  }

  // MARK: Authenticator

  /// The access token, renewed first when it expires within the skew.
  /// - Returns: The token, or nil when signed out.
  /// - Throws: A retryable ``NetworkError`` when a needed refresh failed in transit.
  public func accessToken() async throws -> String? {
    guard let current = credentials else { return nil }
    guard let expiresAt = current.expiresAt,
      expiresAt.timeIntervalSince(now()) < options.expirySkew.inSeconds
    else { return current.accessToken }
    Log.auth.debug("access token expires within \(options.expirySkew); refreshing ahead of use")
    do {
      return try await refresh(rejectedToken: current.accessToken)
    } catch let error as NetworkError where error.isRetryable {
      if expiresAt > now() { return current.accessToken }  // still valid: use it this once
      throw error
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      return nil  // the refresh was rejected and the session signed out
    }
  }

  /// Renews the token after a 401 (see ``Authenticator/refresh(rejectedToken:)``).
  /// - Parameter rejectedToken: The token the failed request carried.
  /// - Returns: The token to retry with.
  /// - Throws: ``NetworkError/unauthorized`` or a retryable error.
  public func refresh(rejectedToken: String) async throws -> String {
    guard let current = credentials else { throw NetworkError.unauthorized }
    if current.accessToken != rejectedToken { return current.accessToken }
    if let inFlight = refreshTask { return try await Self.token(from: inFlight) }

    let time = clock.now()
    refreshTimes.removeAll { time - $0 >= options.refreshWindow }
    guard refreshTimes.count < options.maxRefreshes else {
      Log.auth.error(
        "\(refreshTimes.count) refreshes within \(options.refreshWindow): refresh loop, signing out"
      )
      signOut(.refreshLoop)
      throw NetworkError.unauthorized
    }
    guard let refresher else {
      signOut(.refreshRejected)
      throw NetworkError.unauthorized
    }
    refreshTimes.append(time)
    refreshCount += 1
    let startedIn = generation
    let refreshToken = current.refreshToken
    let task = Task { try await refresher(refreshToken) }
    refreshTask = task
    defer { refreshTask = nil }
    do {
      let renewed = try await task.value
      guard generation == startedIn else { throw NetworkError.unauthorized }
      credentials = renewed
      do { try store.save(renewed) } catch {
        Log.auth.error("could not store renewed credentials: \(error)")
      }
      Log.auth.info("access token refreshed")
      broadcaster.yield(.refreshed)
      return renewed.accessToken
    } catch {
      if Self.isTransient(error) {
        Log.auth.warning("refresh failed in transit, session kept: \(error)")
        throw error
      }
      Log.auth.warning("refresh rejected: \(error)")
      if generation == startedIn { signOut(.refreshRejected) }
      throw NetworkError.unauthorized
    }
  }

  private static func token(from task: Task<Credentials, any Error>) async throws -> String {
    do {
      return try await task.value.accessToken
    } catch {
      if isTransient(error) { throw error }
      throw NetworkError.unauthorized
    }
  }

  private static func isTransient(_ error: any Error) -> Bool {
    if error is CancellationError { return true }
    if let network = error as? NetworkError { return network.isRetryable }
    return false
  }

}
