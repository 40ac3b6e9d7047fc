import StrataConcurrency

/// When an exchange's response head arrived — its time to first byte — for whoever asked
/// before sending it: the attempt loop (``RequestRecord/firstByteMilliseconds``) and the
/// HAR recorder (a HAR entry's `wait` and `receive`). Whoever wants it runs the exchange with
/// a mark as ``current``; a transport that sees the head apart from the body
/// (``URLSessionTransport``) stamps it, and with it every mark it was made within. An app's
/// own transport answers whole, stamps nothing, and the time stays unknown.
final class ResponseHeadMark: Sendable {
  @TaskLocal static var current: ResponseHeadMark?

  private let outer: ResponseHeadMark?
  private let start = ContinuousClock.now
  private let arrival = Lock<ContinuousClock.Instant?>(nil)

  /// A mark made as its exchange starts, within `outer` (the mark of whoever runs that
  /// exchange), stamped with it.
  init(within outer: ResponseHeadMark? = current) { self.outer = outer }

  /// The head arrived now (the first stamp counts: a redirect's head is the first byte).
  func stamp(_ now: ContinuousClock.Instant = .now) {
    arrival.withLock { if $0 == nil { $0 = now } }
    outer?.stamp(now)
  }

  /// How long after the mark was made the head arrived; nil when no transport stamped it.
  var firstByte: Duration? { arrival.withLock { $0 }.map { $0 - start } }
}
