import Foundation

/// Why a change failed for good — the server answered this very request, and sending it again
/// unchanged cannot succeed (a validation error, a missing resource). A sync marks such a
/// change `failed` and does not send it again until ``LocalStore/retryFailed(only:)`` puts it back.
/// A sync's `send` may throw one of its own; a ``NetworkError`` it throws is read by
/// `init(_: NetworkError)`, the one rule. Any other failure leaves the change `pending` and
/// stops the sync, keeping the order: a captive portal's page, a session that could not be
/// refreshed or a timeout is never taken for a refusal.
public struct ChangeRefused: Error, LocalizedError, Sendable, Equatable, CustomStringConvertible {
  /// The server's reason, one line.
  public let reason: String

  public init(_ reason: String) { self.reason = UntrustedText.sanitize(reason, limit: 200) }

  public var description: String { "the server refused the change: \(reason)" }
  public var errorDescription: String? { description }

  /// The refusal a send's failure amounts to, or nil when the change may still go: the one
  /// rule, which ``LocalStore/sync(only:maxAttempts:progress:send:)`` applies to a ``NetworkError``
  /// its `send` throws. A change failed for good when the server refused it
  /// (a 4xx that sending it again cannot fix, not a page from a proxy), or took it and answered JSON that cannot be read (an empty
  /// 201, JSON of another shape: sending it again would only make a duplicate). A page that is
  /// not JSON at all is a captive portal's or a proxy's: the change may never have reached the
  /// API, and may go again.
  public init?(_ error: NetworkError) {
    if Self.isRefusal(error) {
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

  /// Whether the server refused this very request for good: a 4xx that sending it again
  /// unchanged cannot fix — not 401/403 (a session matter), 407, 408, 409, 425 or 429 (try
  /// later), and not an HTML page (a captive portal or a proxy talking, not the API).
  /// Everything else — timeouts, 5xx, a 2xx that does not decode, offline — may pass later.
  /// The one place that says so: the store's rule, applied to what the network layer says.
  static func isRefusal(_ error: NetworkError) -> Bool {
    guard case .server(let status, let body) = error.kind, (400...499).contains(status),
      ![401, 403, 407, 408, 409, 425, 429].contains(status)
    else { return false }
    return body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) != UInt8(ascii: "<")
  }
}
