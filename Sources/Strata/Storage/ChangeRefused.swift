/// What a sync's `send` throws when the server refused the change for good — it answered
/// this very request, and sending it again unchanged cannot succeed (a validation error, a
/// missing resource). The change is marked `failed` and not sent again until
/// ``LocalStore/retryFailed()`` puts it back. Any other error leaves the change `pending` and stops the sync, keeping the order: the
/// store cannot tell a captive portal's page, a session that could not be renewed or a
/// timeout from a refusal, so it never guesses one.
public struct ChangeRefused: Error, Sendable, Equatable {
  /// The server's reason, one line.
  public let reason: String

  public init(_ reason: String) { self.reason = UntrustedText.sanitize(reason, limit: 200) }
}
