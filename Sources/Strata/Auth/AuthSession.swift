import Foundation
import StrataConcurrency

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
  let refresher: Refresh?
  let options: Options
  let clock: any MonotonicClock
  let now: @Sendable () -> Date
  /// Where the service keeps answers: the signed-in account's are removed when it signs out.
  private let cache: HTTPCache?
  /// What a refresh (which holds the cross-process lock) runs as, so a suspension ends it.
  let activity: any ExpiringActivity
  let broadcaster = EventBroadcaster<AuthEvent>()
  var credentials: Credentials?
  /// The refresh under way, and the session (generation) it belongs to.
  var inFlight: (generation: Int, task: Task<Void, any Error>)?
  var refreshTimes: [Duration] = []
  /// Bumped by sign-in and sign-out: a refresh finishing afterwards is discarded; its waiters
  /// get the new session's answer. Kept outside the actor so a ``SessionMark`` can compare
  /// it without a hop.
  private nonisolated let generations = Lock(0)
  var generation: Int {
    get { generations.withLock { $0 } }
    set { generations.withLock { $0 = newValue } }
  }
  /// The store's stamp last read (``TokenStore/stamp()``): another process's change when it
  /// differs.
  var storedStamp: String?
  /// The store could not be read when this session was made (``TokenStoreLocked``): it is read
  /// again when next asked whose session this is.
  var restorePending = false
  /// How many refresh calls were made (for diagnostics and tests).
  package internal(set) var refreshCount = 0

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
    storedStamp = store.stamp()
    let restored = Self.restore(from: store, origin: origin)
    (credentials, restorePending) = (restored.credentials, restored.locked)
  }

  // MARK: State

  /// Whether credentials are held.
  public var isSignedIn: Bool { credentials != nil }

  /// Whose session this is (``Credentials/owner``): the account the HTTP cache keeps its
  /// answers under, or ``DataOwner/device`` when signed out or the credentials name none.
  ///
  /// Read afresh where another process may change the session (its store's
  /// ``TokenStore/stamp()`` changed since this session last read it): an account it no longer names has
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
    storedStamp = store.stamp()  // this process's own change: nothing to follow
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
        unreadable = try store.load() == nil && store.stamp() != nil
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
    storedStamp = store.stamp()
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

  // MARK: Authenticator

  /// The session to send a request in (see ``Authenticator/session()``): the store followed,
  /// the token refreshed first when it expires within the skew, and a mark that tells
  /// without a hop whether this session still holds — the same generation here, and the
  /// store unchanged or still naming the same owner (a refresh in another process keeps it).
  /// - Throws: A retryable ``NetworkError`` when a needed refresh failed without a rejection.
  public func session() async throws -> SessionMark {
    followStore()
    let token = try await accessToken()
    // Read after the refresh's suspension: the token and the owner are one session's (a
    // token refreshed meanwhile by another call of the same session is the one to send).
    let owner = DataOwner(account: credentials?.account)
    let (generation, stamp, store, generations) = (generation, storedStamp, store, generations)
    return SessionMark(token: token == nil ? nil : credentials?.accessToken, owner: owner) {
      guard generations.withLock({ $0 }) == generation else { return false }
      return store.stamp() == stamp || store.storedOwner() == owner
    }
  }

  /// The access token, refreshed first when it expires within the skew.
  /// - Returns: The token, or nil when signed out.
  private func accessToken() async throws -> String? {
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
}
