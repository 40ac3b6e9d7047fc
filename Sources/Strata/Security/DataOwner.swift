/// Whom something kept on the device belongs to: the account whose session made it, or — for
/// what was made while no one was signed in — the device.
///
/// The owner is the unit of privacy on a device shared by several people. A ``LocalStore`` is
/// opened for one owner (its files apart from every other owner's); the ``HTTPCache`` keeps a
/// signed-in account's answers in that account's partition. An owner's changes are shown and
/// sent only while that owner is the one signed in: ``LocalStore/sync(only:maxAttempts:progress:send:)``
/// sends each change *as* its store's owner, and ``NetworkService`` sends nothing made as an
/// owner who is not signed in at that moment (``NetworkError/Unauthorized/sessionEnded``).
public enum DataOwner: Sendable, Hashable, CustomStringConvertible {
  /// What was made signed out. Sent only while signed out, so never under anyone's token.
  case device
  /// What was made in the session of this account (``Credentials/account``).
  case account(String)

  /// The owner of what is made in a session of `account`; nil (signed out, or credentials that
  /// name no account) is the device.
  public init(account: String?) {
    if let account { self = .account(account) } else { self = .device }
  }

  /// The account, nil for the device.
  public var account: String? {
    if case .account(let account) = self { return account }
    return nil
  }

  /// `account user-1`, or `this device (signed out)`.
  public var description: String {
    switch self {
    case .device: "this device (signed out)"
    case .account(let account): "account \(account)"
    }
  }

  /// The owner the current task works for: ``LocalStore`` sets it around each change it
  /// sends, and ``NetworkService`` refuses to send a request made in it unless that owner is
  /// the one signed in (its ``Authenticator/account()``), so a change can never go out in
  /// another account's session — whatever signs in or out while a sync runs.
  @TaskLocal package static var acting: DataOwner?
}
