import Foundation

/// The refresh: one at a time for any number of callers of one session (single flight), and
/// across processes sharing the store (its refresh lock); a session ended only when the server
/// definitively rejects it.
extension AuthSession {
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
    storedStamp = store.stamp()
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

  /// Ends the session after the server rejected `rejected`, clearing the store only if it still
  /// holds them: another process may have stored newer credentials, which are adopted instead.
  /// - Returns: False when newer credentials were adopted and the session goes on.
  @discardableResult
  func discard(_ rejected: Credentials, _ reason: SignOutReason) -> Bool {
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
  func adoptNewer(than rejected: Credentials) -> Bool {
    guard let stored = try? store.load(), stored.origin == origin,
      stored.accessToken != rejected.accessToken
    else { return false }
    KnownSecrets.register([stored.accessToken, stored.refreshToken])
    credentials = stored
    Log.auth.info("using the access token another process refreshed")
    broadcaster.yield(.refreshed)
    return true
  }
}
