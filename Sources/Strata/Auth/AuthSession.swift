import Foundation

/// The signed-in session for one API origin: holds credentials, hands access tokens to
/// `NetworkService` (only for requests to that origin), and refreshes them — once for any number
/// of concurrent 401s (single flight, also across processes sharing a token file),
/// proactively when the expiry is near, never in a loop — signing out only when the server
/// definitively rejects the refresh.
///
/// The refresh is an injected function (usually `AuthRepository.refresh`): the session does not
/// depend on the networking instance that depends on it.
public actor AuthSession: Authenticator {
  /// Exchanges a refresh token for new credentials.
  package typealias Refresh = @Sendable (_ refreshToken: String) async throws -> Credentials

  /// Tuning of refresh behaviour.
  package struct Options: Sendable {
    /// Refresh before use when the access token expires within this.
    package var expirySkew: Duration
    /// At most this many refreshes …
    package var maxRefreshes: Int
    /// … within this window; more means the server rejects every new token: sign out.
    package var refreshWindow: Duration

    /// Defaults: a 30 s margin, at most 5 refreshes in 30 s.
    package init(
      expirySkew: Duration = .seconds(30), maxRefreshes: Int = 5,
      refreshWindow: Duration = .seconds(30)
    ) {
      (self.expirySkew, self.maxRefreshes) = (expirySkew, maxRefreshes)
      self.refreshWindow = refreshWindow
    }
  }

  /// The API that issued the session; its tokens are sent nowhere else.
  public nonisolated let origin: Origin
  let store: any TokenStore
  private let refresher: Refresh?
  private let options: Options
  private let clock: any MonotonicClock
  private let now: @Sendable () -> Date
  /// Where the service keeps answers: the signed-in account's are removed when it signs out.
  private let cache: HTTPCache?
  /// What a refresh (which holds the cross-process lock) runs as, so a suspension ends it.
  private let activity: any ExpiringActivity
  let broadcaster = EventBroadcaster<AuthEvent>()
  var credentials: Credentials?
  /// The refresh under way, and the session (generation) it belongs to.
  private var inFlight: (generation: Int, task: Task<Void, any Error>)?
  private var refreshTimes: [Duration] = []
  /// Bumped by sign-in and sign-out: a refresh finishing afterwards is discarded; its waiters
  /// get the new session's answer.
  var generation = 0
  /// The session file's version last read (``FileTokenStore/version()``): another process's
  /// change when it differs.
  var storedVersion: String?
  /// The store could not be read when this session was made (``TokenStoreLocked``): it is read
  /// again when next asked whose session this is.
  var restorePending = false
  /// How many refresh calls were made (for diagnostics and tests).
  package private(set) var refreshCount = 0

  /// Creates a session for the API at `origin`, restoring credentials from `store` when that
  /// origin issued them (ones bound elsewhere, or to no origin, are ignored and never sent).
  /// - Parameter origin: The API's origin (``Origin`` of its base URL).
  /// - Parameter store: Where the credentials persist; what it holds for `origin` is restored.
  /// - Parameter clock: Time for the refresh-loop guard (at most 5 refreshes in 30 s; more means the
  ///   server rejects every new token, and the session ends).
  /// - Parameter now: Wall-clock time for token expiry (a token expiring within 30 s
  ///   is refreshed before use).
  /// - Parameter cache: The HTTP cache of the service this session signs (its
  ///   ``NetworkOptions/cache``): the account's answers are removed from it when the session
  ///   ends — signed out, or rejected by the server.
  /// - Parameter refresh: The refresh call (nil: a rejected token ends the session).
  public init(
    origin: Origin, store: any TokenStore, clock: any MonotonicClock = SystemMonotonicClock(),
    now: @escaping @Sendable () -> Date = { Date() }, cache: HTTPCache? = nil,
    refresh: (@Sendable (_ refreshToken: String) async throws -> Credentials)? = nil
  ) {
    self.init(
      origin: origin, store: store, options: Options(), clock: clock, now: now, cache: cache,
      refresh: refresh)
  }

  /// As ``init(origin:store:clock:now:cache:refresh:)``, with the expiry skew and
  /// refresh-loop guard in `options`.
  package init(
    origin: Origin, store: any TokenStore, options: Options,
    clock: any MonotonicClock = SystemMonotonicClock(),
    now: @escaping @Sendable () -> Date = { Date() }, cache: HTTPCache? = nil,
    refresh: (@Sendable (_ refreshToken: String) async throws -> Credentials)? = nil
  ) {
    self.init(
      origin: origin, store: store, options: options, activity: SystemActivity(), clock: clock,
      now: now, cache: cache, refresh: refresh)
  }

  /// As the package initialiser, with the activity a refresh runs as (tests end it).
  init(
    origin: Origin, store: any TokenStore, options: Options, activity: any ExpiringActivity,
    clock: any MonotonicClock = SystemMonotonicClock(),
    now: @escaping @Sendable () -> Date = { Date() },
    cache: HTTPCache? = nil, refresh: Refresh? = nil
  ) {
    (self.activity, self.cache, self.origin, self.store) = (activity, cache, origin, store)
    (self.options, self.clock, self.now, self.refresher) = (options, clock, now, refresh)
    storedVersion = (store as? FileTokenStore)?.version()
    let restored = Self.restore(from: store, origin: origin)
    (credentials, restorePending) = (restored.credentials, restored.locked)
  }

  // MARK: State

  /// Whether credentials are held.
  public var isSignedIn: Bool { credentials != nil }

  /// Whose session this is (``Credentials/owner``): the account the HTTP cache keeps its
  /// answers under, or ``DataOwner/device`` when signed out or the credentials name none.
  ///
  /// Read afresh where another process may change the session (a ``FileTokenStore``): when
  /// the file changed since this session last read it, an account it no longer names has
  /// signed out — here too (`.signedOut(.endedElsewhere)`) — and one it names now is adopted.
  /// So work for an account (a store's sync, a read to keep) stops at a sign-out in any
  /// process, at the cost of one `lstat` per question.
  public func owner() -> DataOwner {
    followStore()
    return DataOwner(account: credentials?.account)
  }

  /// When the access token expires, if known.
  package var expiresAt: Date? { credentials?.expiresAt }

  /// A new stream of session changes; each subscriber gets its own.
  public nonisolated func updates() -> AsyncStream<AuthEvent> { broadcaster.stream() }

  /// Stores credentials after a login, bound to this session's origin.
  ///
  /// Signing in as another account ends the previous session as ``signOut()`` does — its
  /// answers leave the HTTP cache, and a `.signedOut(.switchedAccount)` event is sent first —
  /// also when that session was only on disk and could not be restored (a session file with
  /// the wrong mode). What its owner kept to send (a ``LocalStore`` of theirs) is not touched:
  /// it waits for them.
  /// - Throws: When the store cannot save them (the previous session has then ended anyway).
  public func signIn(_ credentials: Credentials) throws {
    let bound = credentials.bound(to: origin)
    KnownSecrets.register([bound.accessToken, bound.refreshToken])
    // A session only on disk (unrestorable, or another process's) ends here; one held ends below.
    if let stored = store.storedOwner().account, stored != bound.account,
      stored != self.credentials?.account
    {
      cache?.removeAll(.account(stored))
    }
    if let ending = self.credentials, ending.account != bound.account {
      end(.switchedAccount)
    }
    try store.save(bound)
    self.credentials = bound
    generation += 1
    refreshTimes.removeAll()
    Log.auth.notice("signed in to \(origin)")
    broadcaster.yield(.signedIn)
  }

  /// Forgets the credentials and removes them from the store, with the signed-in account's
  /// answers in the HTTP cache — also when the session could not be restored (a file with the
  /// wrong mode, damaged, or another user's that may be removed): the account such a file
  /// names loses its answers too, and when it names none (it is damaged), every account's
  /// answers go: whose they were cannot be told. Nothing is refused; a file that could not be
  /// removed (a directory at its path) is logged, and the store still holds it.
  public func signOut() {
    let named = store.storedOwner().account
    // A file that yields no session (refused, or damaged and read as signed out) and names
    // no account: whose answers it kept cannot be told.
    var unreadable = false
    if credentials == nil, named == nil {
      do {
        unreadable = try store.load() == nil && (store as? FileTokenStore)?.version() != nil
      } catch is TokenStoreLocked {
        // Locked, not damaged (`unreadable` stays false): whose it is shows after the unlock.
      } catch {
        unreadable = true
      }
    }
    restorePending = false
    do { try store.clear() } catch {
      Log.auth.error("could not clear stored credentials: \(error)")
    }
    if let named, named != credentials?.account {
      cache?.removeAll(.account(named))
    } else if named == nil, unreadable {
      cache?.removeAllAccounts()
    }
    end(.requested)
  }

  func end(_ reason: SignOutReason) {
    guard let ending = credentials else { return }
    // The user's cached answers go with the session, whatever ended it.
    if let account = ending.account { cache?.removeAll(.account(account)) }
    credentials = nil
    generation += 1
    Log.auth.notice("signed out (\(String(describing: reason)))")
    broadcaster.yield(.signedOut(reason))
  }

  /// Ends the session after the server rejected `rejected`, clearing the store only if it still
  /// holds them: another process may have stored newer credentials, which are adopted instead.
  /// - Returns: False when newer credentials were adopted and the session goes on.
  @discardableResult
  private func discard(_ rejected: Credentials, _ reason: SignOutReason) -> Bool {
    if adoptNewer(than: rejected) { return false }
    if (try? store.load())?.refreshToken == rejected.refreshToken {
      do { try store.clear() } catch {
        Log.auth.error("could not clear stored credentials: \(error)")
      }
    }
    end(reason)
    return true
  }

  /// Takes the stored credentials when another process replaced `rejected` with newer ones
  /// for this origin (same session, so no generation change).
  private func adoptNewer(than rejected: Credentials) -> Bool {
    guard let stored = try? store.load(), stored.origin == origin,
      stored.accessToken != rejected.accessToken
    else { return false }
    KnownSecrets.register([stored.accessToken, stored.refreshToken])
    credentials = stored
    Log.auth.info("using the access token another process refreshed")
    broadcaster.yield(.refreshed)
    return true
  }

  // MARK: Authenticator

  /// The access token, refreshed first when it expires within the skew.
  /// - Returns: The token, or nil when signed out.
  /// - Throws: A retryable ``NetworkError`` when a needed refresh failed without a rejection.
  public func accessToken() async throws -> String? {
    guard let current = credentials else { return nil }
    guard let expiresAt = current.expiresAt,
      expiresAt.timeIntervalSince(now()) < options.expirySkew.inSeconds
    else { return current.accessToken }
    Log.auth.debug("access token expires within \(options.expirySkew); refreshing ahead of use")
    do {
      return try await refresh(rejectedToken: current.accessToken)
    } catch let error as NetworkError where RetryPolicy.isTransient(error) {
      if expiresAt > now() { return current.accessToken }  // still valid: use it this once
      throw error
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      return nil  // the refresh was rejected and the session signed out
    }
  }

  /// Ends the session when the server rejects the token it just refreshed (see
  /// ``Authenticator/rejected(refreshedToken:)``); a session that has moved on is kept.
  public func rejected(refreshedToken: String) async {
    guard let current = credentials, current.accessToken == refreshedToken else { return }
    Log.auth.notice("the server rejected a freshly refreshed token; signing out")
    _ = discard(current, .tokenRejected)
  }

  /// Refreshes the token after a 401 (see ``Authenticator/refresh(rejectedToken:)``).
  ///
  /// One refresh runs at a time for any number of callers, and across processes sharing the
  /// store (its refresh lock is held, and the store re-read, before the refresh token is
  /// spent). Only a definitive rejection of the refresh (400, 401, 403) ends the session;
  /// anything else keeps it and throws a retryable error. A caller whose session changed
  /// while it waited gets the new session's token, or `unauthorized` after a sign-out.
  /// - Parameter rejectedToken: The token the failed request carried.
  /// - Returns: The token to retry with.
  /// - Throws: ``NetworkError/Unauthorized`` or a retryable ``NetworkError``.
  public func refresh(rejectedToken: String) async throws -> String {
    // The caller held a token, so no session now means its session ended meanwhile.
    guard let current = credentials else { throw NetworkError.unauthorized(.sessionEnded) }
    if current.accessToken != rejectedToken { return current.accessToken }
    let startedIn = generation
    let task: Task<Void, any Error>
    if let inFlight, inFlight.generation == startedIn {
      task = inFlight.task
    } else {
      let time = clock.now()
      refreshTimes.removeAll { time - $0 >= options.refreshWindow }
      guard refreshTimes.count < options.maxRefreshes else {
        Log.auth.error(
          "\(refreshTimes.count) refreshes within \(options.refreshWindow): refresh loop, signing out"
        )
        discard(current, .refreshLoop)
        throw NetworkError.unauthorized(.refreshRejected)
      }
      guard let refresher else {
        discard(current, .refreshRejected)
        throw NetworkError.unauthorized(.refreshRejected)
      }
      refreshTimes.append(time)
      refreshCount += 1
      task = Task { [activity] in
        try await activity.run("token refresh") {
          try await self.refresh(current, using: refresher, generation: startedIn)
        }
      }
      inFlight = (startedIn, task)
    }
    let outcome = await task.result
    guard let latest = credentials else {
      // A refresh that worked, followed by the end of the session it made (another call's
      // renewed token rejected, a sign-out), is a session that ended, not a refused refresh.
      if case .failure(let error) = outcome { throw error }
      throw NetworkError.unauthorized(.sessionEnded)
    }
    if generation == startedIn, case .failure(let error) = outcome { throw error }
    return latest.accessToken
  }

  /// The refresh itself, run once per session generation while callers wait on it.
  private func refresh(_ rejected: Credentials, using refresher: Refresh, generation startedIn: Int)
    async throws
  {
    defer { if inFlight?.generation == startedIn { inFlight = nil } }
    let lock: TokenStoreLock
    do {
      lock = try await store.lockForRefresh()
    } catch {
      throw error is CancellationError ? error : NetworkError.refreshFailed(error)
    }
    defer { lock.release() }
    guard generation == startedIn else { return }

    // Another process sharing the store may have refreshed the session while we waited.
    if adoptNewer(than: rejected) { return }

    let refreshed: Credentials
    do {
      refreshed = try await refresher(rejected.refreshToken).bound(
        to: origin, account: rejected.account)
    } catch {
      guard generation == startedIn else { return }
      if error is CancellationError { throw error }
      guard Self.isRejection(error) else {
        Log.auth.warning("refresh failed, session kept: \(error)")
        throw NetworkError.refreshFailed(error)
      }
      Log.auth.warning("refresh rejected: \(error)")
      if discard(rejected, .refreshRejected) { throw NetworkError.unauthorized(.refreshRejected) }
      return
    }
    guard generation == startedIn else { return }
    KnownSecrets.register([refreshed.accessToken, refreshed.refreshToken])
    credentials = refreshed
    do { try store.save(refreshed) } catch {
      Log.auth.error("could not store refreshed credentials: \(error)")
    }
    Log.auth.info("access token refreshed")
    broadcaster.yield(.refreshed)
  }

  /// Only the refresh endpoint's definitive answers end a session: 400, 401 and 403.
  static func isRejection(_ error: any Error) -> Bool {
    switch (error as? NetworkError)?.kind {
    case .unauthorized: true
    case .server(let status, _): status == 400 || status == 401 || status == 403
    default: false
    }
  }
}
