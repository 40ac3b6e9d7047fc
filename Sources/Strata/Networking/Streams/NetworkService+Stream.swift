import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Answers read as they arrive: the send path (middleware, the origin's token and its one
/// renewal, retries before the first byte, records, redacted traces) with the body handed to
/// a reader instead of memory, an idle timeout instead of the overall deadline, and — for
/// server-sent events — reconnection.
extension NetworkService {
  /// The answer to `endpoint` as it arrives, read as `format` says: ``StreamFormat/bytes``,
  /// ``StreamFormat/lines``, ``StreamFormat/jsonLines(_:)`` or
  /// ``StreamFormat/events(lastEventID:)``. The endpoint says what to ask; its response type
  /// is not used.
  ///
  /// ```swift
  /// let feed = Request<Data>(path: "events")
  /// for try await event in network.stream(feed, as: .events(lastEventID: saved)) {
  ///   show(event.type, event.data)
  /// }
  /// ```
  ///
  /// The request's `maxResponseSize` limits each line or event, never the body or a length
  /// the server announces: a longer line ends the stream with
  /// ``NetworkError/Kind/responseTooLarge(limit:)`` (an event's is skipped, as the EventSource
  /// model drops what it cannot dispatch). A reader that falls more than twice that (at least
  /// 4 MiB) behind ends a stream of pieces, lines or values the same way; an event stream
  /// whose events carry ids instead drops the connection and, once the reader has caught up,
  /// reconnects with the last id it handed over (every event once, where the server honours
  /// `Last-Event-ID`). Between bytes the service's ``NetworkOptions/idleTimeout`` applies;
  /// the overall deadline only when the request sets its own. Attempts before the first byte
  /// are retried as a `send`'s are; once bytes have arrived an attempt is never repeated (an
  /// event stream reconnects instead). What arrives after the session it was opened in has
  /// ended is not delivered: the stream ends with ``NetworkError/Unauthorized/sessionEnded``.
  /// - Parameter endpoint: What to ask for.
  /// - Parameter format: How the answer is read, and what it asks for as `Accept`.
  /// - Parameter state: Told when the stream connects, opens and closes (on the transport's
  ///   thread, in order; ``StreamState/closed`` last and once).
  public func stream<E: Endpoint, Element>(
    _ endpoint: E, as format: StreamFormat<Element>,
    state: (@Sendable (StreamState) -> Void)?
  ) -> ResponseStream<Element> {
    var request = endpoint.request
    let limit = max(1, request.maxResponseSize ?? options.maxResponseSize)
    // Asked for by its own type: a server that negotiates on `Accept` would answer JSON.
    request.acceptIfUnset(format.accept)
    return openStream(request, format.parser(self, limit), limit: limit, state: state)
  }

  private func openStream<Response, Parser: StreamParser>(
    _ request: Request<Response>, _ parser: Parser, limit: Int,
    state: (@Sendable (StreamState) -> Void)?
  ) -> ResponseStream<Parser.Element> {
    let label = Self.label(request.method, request.path)
    let channel = StreamChannel<Parser.Element>(capacity: max(2 * limit, 4 << 20))
    let sink = StreamSink(parser, channel: channel, state: state)
    let session = StreamSession()
    let source = StreamSource(
      channel: channel,
      producer: { channel in
        Task { [self] in
          defer { sink.tell(.closed) }
          do {
            try await produce(request, label: label, into: sink, session: session)
            channel.finish()
          } catch let error as NetworkError {
            logger.info("\(label): stream ended: \(error)")
            channel.finish(error.labelled(label))
          } catch {
            channel.finish(error)
          }
        }
      },
      sessionCheck: { [self] in try await session.check(with: self, label: label) })
    return ResponseStream(source: source)
  }

  /// Connects, reads until the connection ends, and — for an event stream — connects again,
  /// until the reader stops or the stream ends.
  private func produce<Response, Parser>(
    _ request: Request<Response>, label: String, into sink: StreamSink<Parser>,
    session: StreamSession
  ) async throws {
    let policy = request.retryPolicy ?? options.retryPolicy
    var quiet = 0  // connections in a row that brought no element
    while true {
      sink.startConnection()
      sink.tell(.connecting)
      var failure: NetworkError?
      do {
        let status = try await connect(request, label: label, into: sink, session: session)
        guard Parser.reconnects else { return }
        guard sink.connection.taken else {
          logger.notice("\(label) → \(status), not an event stream: the stream ends")
          return
        }
      } catch is NetworkError where sink.resumeAfterFallingBehind() {
        logger.info("\(label): the reader fell behind; reconnecting once it has caught up")
        await sink.channel.drained()
        try Task.checkCancellation()
        continue
      } catch let error as NetworkError where Parser.reconnects && RetryPolicy.isTransient(error) {
        failure = error
      } catch let error as NetworkError {
        guard let type = sink.declined else { throw error }
        logger.notice("\(label): the answer is \(type), not an event stream: the stream ends")
        return
      }
      quiet = sink.connection.elements > 0 ? 0 : quiet + 1
      guard quiet <= policy.maxRetries else {
        throw failure ?? NetworkError.transport(URLError(.networkConnectionLost))
      }
      let delay = Self.reconnectionDelay(
        server: sink.parser({ $0.reconnectionTime }), quiet: quiet, policy: policy)
      logger.info(
        "\(label): connection ended\(failure.map { " (\(Self.reason($0)))" } ?? ""); reconnecting in \(delay.shortDescription)"
      )
      sink.tell(.connecting)
      try await clock.sleep(for: delay)
    }
  }

  /// One connection, through the one attempt loop.
  /// - Returns: The answer's status, once its body ended.
  private func connect<Response, Parser>(
    _ request: Request<Response>, label: String, into sink: StreamSink<Parser>,
    session: StreamSession
  ) async throws -> Int {
    var call = try await authorise(request, label: label)
    if request.deadline == nil { call.deadline = clock.now() + Self.streamLifetime }
    if let cache = options.cache, let account = call.owner.account {
      call.epoch = cache.epoch(for: account)
    }
    session.mark(call.session, epoch: call.epoch)
    if let id = sink.parser({ $0.resumeID }), !id.isEmpty {
      call.request.setValue(id, forHTTPHeaderField: "Last-Event-ID")
    }
    call.sink = sink
    var delivery = StreamDelivery(sink: sink)
    return try await run(&call, &delivery)
  }

  /// How long an event stream waits before it connects again: the server's `retry:` (in
  /// milliseconds) up to the policy's `maxDelay`, else the policy's backoff; after `quiet`
  /// connections in a row that brought nothing, at least that backoff, whatever the server
  /// said; never under ``minimumReconnection`` (`retry: 0` made ~690 connections a second).
  static func reconnectionDelay(server: Int?, quiet: Int, policy: RetryPolicy) -> Duration {
    let backoff = policy.delay(forRetry: max(1, quiet), retryAfter: nil)
    var delay = server.map { min(.milliseconds($0), policy.maxDelay) } ?? backoff
    if quiet > 0 { delay = max(delay, backoff) }
    return max(delay, minimumReconnection)
  }

  /// The shortest wait before an event stream connects again: at most four connections a
  /// second, whatever the server asks.
  static var minimumReconnection: Duration { .milliseconds(250) }

  /// How long a stream may last when its request sets no deadline of its own: the idle
  /// timeout is what ends a stream that has stopped.
  static var streamLifetime: Duration { .seconds(365 * 24 * 3600) }
}

/// A streamed call's part of the attempt loop: the body goes to the reader as it arrives, so
/// once any of it has, the attempt is never repeated.
struct StreamDelivery<Parser: StreamParser>: CallDelivery {
  let sink: StreamSink<Parser>

  func prepare(_ call: inout NetworkService.Call, after restart: Restart?) {}

  func inspect(
    _ outcome: AttemptOutcome, _ call: inout NetworkService.Call, _ timing: AttemptTiming
  ) -> Inspection<Int> {
    // The reader has what came: a repeat would hand it over twice.
    if sink.connection.bytes > 0 { call.policy = .none }
    return .judge
  }

  func standIn(for next: NetworkService.Next, call: NetworkService.Call) -> Int? { nil }

  var recordSource: ResponseSource? { nil }

  var bytesReceived: Int? {
    let connection = sink.connection
    return connection.taken ? connection.bytes : nil
  }

  var elementsDelivered: Int? { sink.connection.elements }

  func deliver(_ data: Data, _ response: HTTPURLResponse, call: NetworkService.Call) throws -> Int {
    try sink.finishBody()
    return response.statusCode
  }
}

/// Whose session a stream's current connection was opened in: what arrives is handed over
/// only while that session holds (checked per batch, as a `send` checks its answer).
final class StreamSession: Sendable {
  private let state = Lock<(mark: SessionMark?, epoch: String?)>((nil, nil))

  func mark(_ mark: SessionMark?, epoch: String?) { state.withLock { $0 = (mark, epoch) } }

  func check(with service: NetworkService, label: String) async throws {
    let (mark, epoch) = state.withLock { $0 }
    try await service.checkSession(mark, epoch: epoch, label: label)
  }
}

extension Request {
  /// Sets `Accept` to `value` unless the request names one of its own (in any letter case).
  fileprivate mutating func acceptIfUnset(_ value: String) {
    guard !headers.keys.contains(where: { $0.caseInsensitiveEquals("Accept") }) else { return }
    headers["Accept"] = value
  }
}
