/// The one observer of every call's life (``NetworkOptions/observer``): told the
/// ``RequestRecord`` of each attempt once its outcome is decided — before a backoff wait when
/// it will be retried (``RequestRecord/retry`` says when) — and of each answer the HTTP cache
/// gave without one, each with what was exchanged (``RequestRecord/exchange``). Logs, the
/// HAR export (``HARRecorder/observer``), a UI's "retrying in 2 s (2/3)…", a file of JSON
/// lines and metrics all read the same records:
/// ```swift
/// let har = HARRecorder()
/// options.observer = .all([har.observer, CallObserver { record in count(record) }])
/// ```
public struct CallObserver: Sendable {
  /// The most bytes of each body kept in ``RequestRecord/exchange``; 0 keeps heads only.
  public let bodyLimit: Int
  let observe: @Sendable (RequestRecord) -> Void

  /// - Parameter bodyLimit: The most bytes of each body (request and answer) the exchange
  ///   keeps for `observe` (the body still streams on to the call untouched); 0 keeps heads
  ///   only, at no cost per byte.
  /// - Parameter observe: Told each record, on the thread the attempt ended on: it must not
  ///   wait.
  public init(bodyLimit: Int = 0, _ observe: @escaping @Sendable (RequestRecord) -> Void) {
    (self.bodyLimit, self.observe) = (max(0, bodyLimit), observe)
  }

  /// Several observers as one, told in order; the exchange keeps the most bytes any of them
  /// asks for.
  public static func all(_ observers: [CallObserver]) -> CallObserver {
    CallObserver(bodyLimit: observers.map(\.bodyLimit).max() ?? 0) { record in
      for observer in observers { observer.observe(record) }
    }
  }
}
