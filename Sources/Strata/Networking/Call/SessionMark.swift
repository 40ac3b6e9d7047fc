/// The session a request goes out in, handed out in one piece by
/// ``Authenticator/session()``: the token to send, whose session it is, and how to tell later
/// whether that session still holds. A request's answer is kept and returned as
/// ``owner``'s only while ``isCurrent()`` says so, so a sign-out or another account's sign-in
/// while the answer was on its way never files it under the wrong name.
public struct SessionMark: Sendable {
  /// The bearer token to send; nil when signed out.
  public let token: String?
  /// Whose session it is: ``DataOwner/device`` when signed out or the session names no
  /// account.
  public let owner: DataOwner
  private let check: (@Sendable () -> Bool)?

  /// - Parameter token: The access token to send; nil when signed out.
  /// - Parameter owner: Whose session it is.
  /// - Parameter isCurrent: Whether the session marked is still the one signed in, asked
  ///   once per answer on the thread it arrived on: it must not wait (compare a generation
  ///   counter, a file's stamp). Nil: the service asks ``Authenticator/session()`` again and
  ///   compares owners.
  public init(token: String?, owner: DataOwner, isCurrent: (@Sendable () -> Bool)? = nil) {
    (self.token, self.owner, check) = (token, owner, isCurrent)
  }

  /// Whether the session is still the one signed in; nil when only the authenticator can
  /// say.
  public func isCurrent() -> Bool? { check?() }
}
