/// Supplies bearer tokens to `NetworkService` and refreshes them on 401. `AuthSession` is the
/// implementation; the service never sees refresh tokens.
public protocol Authenticator: Sendable {
  /// The origin that issued the tokens. `NetworkService` attaches them only to requests for
  /// this origin; a `requiresAuth` endpoint elsewhere is sent without credentials.
  var origin: Origin { get }

  /// The session to send a request in, in one piece: its access token (refreshed first if
  /// it is about to expire; nil when signed out), whose session it is — as the HTTP cache
  /// keys their answers (never by the token): answers to requests carrying this session's
  /// tokens are kept for that account alone, and work run as a ``DataOwner`` is sent only
  /// while this names it — and how to tell later whether it still holds. Asked once per
  /// request that carries a token or is made for an owner.
  /// - Throws: Only for failures other than "signed out" (a needed refresh that failed in
  ///   transit, with the token expired).
  func session() async throws -> SessionMark

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

  /// Whose session this is now, without touching the token: what keeps an owner's settings
  /// and work apart (``Preferences``, a ``LocalStore``'s sync). A request asks
  /// ``session()`` instead, which gives the owner with the token. Required, with no default:
  /// a default beside an actor's own method is what a call on the actor would pick.
  func owner() async -> DataOwner
}

extension Authenticator {
  /// Does nothing: an authenticator without a session to end.
  public func rejected(refreshedToken: String) async {}
}
