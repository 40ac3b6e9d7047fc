/// Supplies bearer tokens to `NetworkService` and refreshes them on 401. `AuthSession` is the
/// implementation; the service never sees refresh tokens.
public protocol Authenticator: Sendable {
  /// The origin that issued the tokens. `NetworkService` attaches them only to requests for
  /// this origin; a `requiresAuth` endpoint elsewhere is sent without credentials.
  var origin: Origin { get }

  /// The access token to send now, refreshed first if it is about to expire.
  /// - Returns: The token, or nil when signed out (the request is then not sent).
  /// - Throws: Only for failures other than "signed out".
  func accessToken() async throws -> String?

  /// Called after a 401 for a request that carried `rejectedToken`. If the current token is
  /// already different, returns it without refreshing; otherwise refreshes once for all
  /// concurrent callers (single flight).
  /// - Parameter rejectedToken: The token the failed request carried.
  /// - Returns: A token to retry with.
  /// - Throws: ``NetworkError/Unauthorized`` when the session cannot be refreshed (and is now
  ///   signed out), or a retryable ``NetworkError`` when the refresh call itself failed in
  ///   transit (the session stays signed in).
  func refresh(rejectedToken: String) async throws -> String

  /// Called when the server rejects a token just after refreshing it: the session cannot be
  /// used, so the implementation ends it (unless it has changed since).
  func rejected(refreshedToken: String) async

  /// Whose session this is, as the HTTP cache keys their answers (never the token): the
  /// answers to requests carrying this session's tokens are kept for this account alone, and
  /// work run as a ``DataOwner`` is sent only while this names it. ``DataOwner/device``
  /// (signed out, or a session without accounts) keeps no answer to a request that carried a
  /// token. Required, with no default: a default beside an actor's own method is what a call
  /// on the actor would pick.
  func owner() async -> DataOwner
}

extension Authenticator {
  /// Does nothing: an authenticator without a session to end.
  public func rejected(refreshedToken: String) async {}
}
