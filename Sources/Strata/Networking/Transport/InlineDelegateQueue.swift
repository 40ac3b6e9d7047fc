import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking

  /// The delegate queue of ``URLSessionTransport``'s session on Linux: it runs each delegate
  /// call at once, on FoundationNetworking's own work queue, instead of queueing it.
  final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
    // Why: FoundationNetworking hands every delegate event (the response head, each body
    // chunk of at most 16 KiB, the completion) to the delegate queue as a new `Operation`,
    // and that hop costs more than the rest of a loopback request: a 38 KB page at 32 in
    // flight took 5–11 % longer through a data delegate than through `URLSession.data(for:)`,
    // whose completion handler runs inline. Inline, the delegate session is as fast while
    // still seeing each chunk, which the body-size limit needs.
    //
    // Invariants the session delegate keeps, because it runs on the work queue: it never
    // blocks (a lock held for a dictionary update or a `Data.append` only), and never makes a
    // call that waits on that queue: `cancel()`, and the challenge answer (on which
    // FoundationNetworking cancels or suspends the task at once), are made from a thread of
    // their own; the response-disposition and redirect answers only queue work. Events stay
    // in order: each task's work queue is serial, as the delegate queue was.
    //
    // Only the block form is overridden: anything queued as an `Operation` keeps the
    // ordinary, queued behaviour.
    override func addOperation(_ block: @escaping @Sendable () -> Void) { block() }
  }
#endif
