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
  /// What was made in the session of this account (``Credentials/owner``).
  case account(String)

  /// The owner of what is made in a session of `account`; nil (signed out, or credentials that
  /// name no account) is the device.
  init(account: String?) {
    if let account { self = .account(account) } else { self = .device }
  }

  /// The account, nil for the device.
  var account: String? {
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

  /// Runs `work` as this owner: every request a ``NetworkService`` is asked to send in it
  /// goes out only while this owner is the one signed in (its ``Authenticator/owner()``) —
  /// else it is not sent and fails with ``NetworkError/Unauthorized/sessionEnded`` — and
  /// the device's never carries a token. ``LocalStore/sync(only:maxAttempts:progress:send:)``
  /// runs each change's `send` so; an app's own sync loop does the same with this:
  /// ```swift
  /// try await DataOwner.account("emilys").run { try await network.send(edit) }
  /// ```
  /// Scoped to `work` and the tasks it starts, whatever signs in or out meanwhile.
  @discardableResult
  public func run<Result>(
    isolation: isolated (any Actor)? = #isolation, _ work: () async throws -> Result
  ) async rethrows -> Result {
    try await Self.$acting.withValue(self, operation: work, isolation: isolation)
  }

  /// The owner the current task works for (``run(isolation:_:)``).
  @TaskLocal package static var acting: DataOwner?
}
