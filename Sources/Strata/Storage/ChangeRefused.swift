/// Why a change failed for good — the server answered this very request, and sending it again
/// unchanged cannot succeed (a validation error, a missing resource). A sync marks such a
/// change `failed` and does not send it again until ``LocalStore/retryFailed(only:)`` puts it back.
/// A sync's `send` may throw one of its own; a ``NetworkError`` it throws is read by
/// `init(_: NetworkError)`, the one rule. Any other failure leaves the change `pending` and
/// stops the sync, keeping the order: a captive portal's page, a session that could not be
/// refreshed or a timeout is never taken for a refusal.
public struct ChangeRefused: Error, Sendable, Equatable {
  /// The server's reason, one line.
  public let reason: String

  public init(_ reason: String) { self.reason = UntrustedText.sanitize(reason, limit: 200) }

  /// The refusal a send's failure amounts to, or nil when the change may still go: the one
  /// rule, which ``LocalStore/sync(only:maxAttempts:progress:send:)`` applies to a ``NetworkError``
  /// its `send` throws. A change failed for good when the server refused it
  /// (``NetworkError/isRefusal``), or took it and answered JSON that cannot be read (an empty
  /// 201, JSON of another shape: sending it again would only make a duplicate). A page that is
  /// not JSON at all is a captive portal's or a proxy's: the change may never have reached the
  /// API, and may go again.
  public init?(_ error: NetworkError) {
    if error.isRefusal {
      self.init(
        error.status.map { "HTTP \($0)" + (error.serverMessage.map { ": \($0)" } ?? "") }
          ?? error.description)
      return
    }
    guard case .decoding(let failure) = error.kind, (200...299).contains(failure.status),
      // A page's excerpt reads `<N bytes, not JSON>` (an empty body's, `<empty>`: a refusal).
      !failure.bodyExcerpt.hasSuffix("not JSON>")
    else { return nil }
    self.init(
      "HTTP \(failure.status): the server took it but its answer "
        + "(\(failure.bodyExcerpt.prefix(80))) could not be read; it is not sent again (it may "
        + "exist on the server)")
  }
}
