import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension NetworkService.Call {
  /// The request as the transport gets it: its head, and its body apart — the bytes in
  /// memory, or the file it streams from (read afresh by each attempt) — told to the call's
  /// progress as it is sent.
  func outgoing() -> (URLRequest, HTTPBody?) {
    var head = request
    let bytes = head.httpBody
    (head.httpBody, head.httpBodyStream) = (nil, nil)
    let body: HTTPBody? =
      if let streamed {
        HTTPBody(.file(URL(fileURLWithPath: streamed.path)), length: Int64(streamed.length))
      } else {
        bytes.map(HTTPBody.init)
      }
    return (head, body?.reporting(progress))
  }
}

extension NetworkService {
  /// The middleware, in order, then the transport, for one attempt of `call`.
  func chain(_ call: Call, _ limits: TransferLimits) -> HTTPMiddlewareNext {
    let transport = transport
    var next: HTTPMiddlewareNext = { request, body in
      try await transport.send(request, body: body, limits: limits)
    }
    if let capture = call.capture {
      // Innermost: the observer sees the request as sent, after every middleware.
      let send = next
      next = { request, body in try await capture.sending(request, body, through: send) }
    }
    let described = RequestAttempt(label: call.label, number: call.attempt)
    for middleware in options.middleware.reversed() {
      let inner = next
      next = { request, body in
        try await middleware.intercept(request, body: body, attempt: described, next: inner)
      }
    }
    return next
  }
}

/// When an attempt's response head arrived, as time from sending: stamped by the exchange,
/// read by the attempt's record (``RequestRecord/firstByteMilliseconds``). Unknown for an
/// attempt that got no head, or shared another's.
final class FirstByteTime: Sendable {
  private let time = Lock<Duration?>(nil)

  /// The head arrived `after` sending began (the first stamp counts).
  func stamp(_ after: Duration) { time.withLock { if $0 == nil { $0 = after } } }

  var firstByte: Duration? { time.withLock { $0 } }
}
