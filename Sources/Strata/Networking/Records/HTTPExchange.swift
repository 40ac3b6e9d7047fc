import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What one attempt sent and got, as the transport saw it (after every middleware), or what
/// the HTTP cache answered with: the heads whole, and the first bytes of each body up to the
/// observer's ``CallObserver/bodyLimit``. Nothing in it is masked: an observer that writes it
/// anywhere masks it first (``HARRecorder`` does, as the logs do).
public struct HTTPExchange: Sendable, Equatable {
  /// When the attempt began sending (or the cache answered).
  public var started: Date
  /// The request head as sent: `Authorization` and every middleware's header included.
  public var request: URLRequest
  /// The first bytes of a request body held in memory; nil for none, or a body streamed from
  /// a file or a multipart form (never read for an observer).
  public var requestBody: Data?
  /// The request body's length in bytes, when known; nil for none.
  public var requestBodySize: Int64?
  /// The response head; nil when none arrived.
  public var response: HTTPURLResponse?
  /// The first bytes of the answer's body, as the transport decoded it.
  public var responseBody = Data()
  /// The answer's body bytes in all (``responseBody`` may hold fewer); 0 when the observer
  /// keeps heads only — the body is then not watched at all (``RequestRecord/bytesReceived``
  /// still counts it).
  public var responseBodySize = 0
}

/// An attempt's exchange as it happens: filled in by the innermost step of the chain (after
/// the middleware) and its answer's tapped body, read by the attempt's record.
final class ExchangeCapture: Sendable {
  private let state: Lock<HTTPExchange?>
  private let limit: Int

  init(limit: Int) {
    (state, self.limit) = (Lock(nil), limit)
  }

  /// The step that sends: records the request (its body's first bytes, when in memory) and
  /// taps the answer's body as it streams to the call.
  func sending(
    _ request: URLRequest, _ body: HTTPBody?,
    through next: @escaping HTTPMiddlewareNext
  ) async throws -> (HTTPURLResponse, HTTPBody) {
    var exchange = HTTPExchange(started: Date(), request: request)
    exchange.requestBodySize = body?.length
    if case .bytes(let bytes) = body?.source { exchange.requestBody = Data(bytes.prefix(limit)) }
    state.withLock { $0 = exchange }
    let (response, answer) = try await next(request, body)
    state.withLock { $0?.response = response }
    guard limit > 0 else { return (response, answer) }  // heads only: no cost per byte
    let limit = limit
    return (
      response,
      answer.tapped { [state] piece in
        state.withLock {
          let room = limit - ($0?.responseBody.count ?? limit)
          if room > 0 { $0?.responseBody.append(piece.prefix(room)) }
          $0?.responseBodySize += piece.count
        }
      } end: { _ in
      }
    )
  }

  /// What was exchanged so far.
  var exchange: HTTPExchange? { state.withLock { $0 } }
}
