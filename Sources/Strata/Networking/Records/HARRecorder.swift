import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Records every attempt it sees as an entry of an HTTP Archive (HAR 1.2), the request log
/// browsers' developer tools, Charles, Proxyman and Pulse open: method, URL, headers and
/// bodies of request and answer, the time the exchange took (`wait` until the response head,
/// then `receive`),
/// and Strata's own `_strata`
/// member (the call, the attempt number, `network` or `revalidated` for a `304`, the error of
/// an attempt that got no answer). A retry is an entry of its own. An answer from the HTTP
/// cache, which sends nothing, has no entry.
///
/// Masked exactly as the logs are: secret header values, JSON members and query parameters
/// whose names say secret, a URL's password, credentials by their shape in any text, and every
/// value the process knows is secret (a token a server echoes back) — so the file holds no
/// token, password or `Authorization` value. Bodies are kept up to `bodyLimit` bytes: JSON and
/// text as text, anything else as base64; a streamed upload (a file, a multipart form) is
/// never read into it. Put it last in ``NetworkOptions/middleware``, so it sees each request
/// as it is sent:
/// ```swift
/// let har = HARRecorder()
/// options.middleware.append(har)
/// ```
public final class HARRecorder: HTTPMiddleware, @unchecked Sendable {
  // `entries` and `dropped` are read and written only while holding `lock`.
  private let lock = NSLock()
  /// Each attempt as it ended, with when it started (the document is in start order).
  private var entries: [(started: Date, entry: HARLog.Entry)] = []
  private var dropped = 0
  private let redactor: Redactor
  private let bodyLimit: Int
  private let entryLimit: Int

  /// - Parameter bodyLimit: The most bytes of a body kept (the rest is cut, and said).
  /// - Parameter entryLimit: The most attempts kept: past it the oldest go (the document says
  ///   how many), so a long-running app's recorder stays bounded.
  /// - Parameter revealsPersonalData: Personal-data members (`ssn`, `iban`, …) shown, for local
  ///   debugging, as ``NetworkOptions/revealsPersonalData`` does for logs; secrets stay masked.
  public init(
    bodyLimit: Int = 64 << 10, entryLimit: Int = 10_000, revealsPersonalData: Bool = false
  ) {
    self.bodyLimit = max(0, bodyLimit)
    self.entryLimit = max(1, entryLimit)
    redactor = Redactor(revealsPersonalData: revealsPersonalData)
  }

  /// How many attempts are kept (at most `entryLimit`).
  public var count: Int { lock.withLock { min(entries.count, entryLimit) } }

  /// Records the attempt once its answer's body has been read (up to `bodyLimit` bytes of
  /// it kept), or once it failed; the body streams on to the caller untouched.
  public func intercept(
    _ request: URLRequest, body: HTTPBody?, attempt: RequestAttempt, next: HTTPMiddlewareNext
  ) async throws -> (HTTPURLResponse, HTTPBody) {
    let started = Date()
    let clock = ContinuousClock.now
    let sent = self.request(request, body)
    do {
      let (response, answer) = try await next(request, body)
      let firstByte = ContinuousClock.now - clock
      let kept = Lock((bytes: Data(), total: 0))
      let limit = bodyLimit
      let tapped = answer.tapped { piece in
        kept.withLock {
          if $0.bytes.count < limit { $0.bytes.append(piece.prefix(limit - $0.bytes.count)) }
          $0.total += piece.count
        }
      } end: { [self] error in
        let body = kept.withLock { $0 }
        let took = (ContinuousClock.now - clock, firstByte)
        let outcome: Result<HARLog.Response, any Error> =
          error.map { .failure($0) } ?? .success(self.response(response, body.bytes, body.total))
        keep(sent, attempt, started, took, outcome)
      }
      return (response, tapped)
    } catch {
      keep(sent, attempt, started, (ContinuousClock.now - clock, nil), .failure(error))
      throw error
    }
  }

  /// The recorded attempts as a HAR 1.2 document (JSON, UTF-8), in the order they started.
  public func har() throws -> Data {
    let (kept, dropped) = lock.withLock {
      (entries.suffix(entryLimit), self.dropped + max(0, entries.count - entryLimit))
    }
    let log = HARLog(
      creator: HARLog.Creator(name: "Strata", version: strataVersion),
      entries: kept.sorted { $0.started < $1.started }.map(\.entry),
      comment: dropped > 0
        ? "the \(dropped) oldest attempts were dropped (entryLimit \(entryLimit))" : nil)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(HARLog.Root(log: log))
  }

  /// Writes ``har()`` to `path`, replaced whole (never half a file), 0600, never through a
  /// link planted there.
  /// - Throws: ``FileError`` when it cannot be written.
  public func write(to path: String) throws {
    let bytes = try har()
    if let failure = PrivateFile.replace(path, with: bytes) {
      throw FileError.io(path: path, operation: failure.operation, errno: failure.errno)
    }
  }

  // MARK: Entries

  private func keep(
    _ request: HARLog.Request, _ attempt: RequestAttempt, _ started: Date,
    _ took: (total: Duration, firstByte: Duration?),
    _ outcome: Result<HARLog.Response, any Error>
  ) {
    let milliseconds = took.total.inSeconds * 1000
    // Until the head (sending included), then the body; all of it `wait` when the transport
    // does not tell when the head came.
    let wait = min(milliseconds, took.firstByte.map { $0.inSeconds * 1000 } ?? milliseconds)
    var answer: HARLog.Response
    var failure: String?
    switch outcome {
    case .success(let response): answer = response
    case .failure(let error):
      failure = UntrustedText.sanitize(KnownSecrets.mask(String(describing: error)), limit: 500)
      answer = HARLog.Response(
        status: 0, statusText: "", headers: [],
        content: HARLog.Content(
          size: 0, mimeType: "x-unknown", text: nil, encoding: nil, comment: "no answer"),
        bodySize: -1)
    }
    let status = answer.status
    let entry = HARLog.Entry(
      startedDateTime: Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(started),
      time: milliseconds, request: request, response: answer,
      timings: HARLog.Timings(wait: wait, receive: milliseconds - wait),
      _strata: HARLog.Strata(
        request: attempt.label, attempt: attempt.number,
        source: status == 304 ? "revalidated" : "network", error: failure))
    lock.withLock {
      entries.append((started, entry))
      // Trimmed a quarter past the limit at a time, so keeping one costs O(1) on average.
      if entries.count >= entryLimit + max(1, entryLimit / 4) {
        dropped += entries.count - entryLimit
        entries.removeFirst(entries.count - entryLimit)
      }
    }
  }

  private func request(_ request: URLRequest, _ body: HTTPBody?) -> HARLog.Request {
    let url = request.url.map(redactor.redact(url:)) ?? "?"
    let query = URLComponents(string: url)?.queryItems ?? []
    let headers = request.allHTTPHeaderFields ?? [:]
    let type = request.value(forHTTPHeaderField: "Content-Type") ?? ""
    var postData: HARLog.PostData?
    var size = 0
    if case .bytes(let bytes) = body?.source {
      size = bytes.count
      let text = text(of: bytes.prefix(bodyLimit), type: type, total: bytes.count).text
      postData = HARLog.PostData(mimeType: type, text: text ?? "")
    } else if let body {
      // A file or a multipart form, streamed: never read into the log, whatever it holds.
      size = body.length.flatMap { Int(exactly: $0) } ?? -1
      postData = HARLog.PostData(mimeType: type, text: "", _streamed: true)
    }
    return HARLog.Request(
      method: request.httpMethod ?? "GET", url: url, headers: pairs(headers),
      queryString: query.map { HARLog.Pair(name: $0.name, value: $0.value ?? "") },
      postData: postData, bodySize: size)
  }

  /// The answer as kept: `data`, the first bytes of a body of `size`.
  private func response(_ response: HTTPURLResponse, _ data: Data, _ size: Int)
    -> HARLog.Response
  {
    var headers: [String: String] = [:]
    for (name, value) in response.allHeaderFields {
      headers[String(describing: name)] = String(describing: value)
    }
    let type = response.value(forHTTPHeaderField: "Content-Type") ?? "x-unknown"
    let body = text(of: data, type: type, total: size)
    return HARLog.Response(
      status: response.statusCode,
      statusText: HTTPURLResponse.localizedString(forStatusCode: response.statusCode),
      headers: pairs(headers),
      content: HARLog.Content(
        size: size, mimeType: type, text: body.text, encoding: body.encoding,
        comment: body.comment),
      bodySize: size)
  }

  /// Header fields, masked, in name order.
  private func pairs(_ headers: [String: String]) -> [HARLog.Pair] {
    redactor.redact(headers: headers).sorted { $0.key < $1.key }.map {
      HARLog.Pair(name: $0.key, value: $0.value)
    }
  }

  /// A body as the archive keeps it: JSON and forms masked member by member, other text
  /// masked by shape and by the secrets the process knows, anything else base64 — each cut to
  /// ``bodyLimit`` bytes.
  private func text(of kept: Data, type: String, total: Int) -> (
    text: String?, encoding: String?, comment: String?
  ) {
    guard !kept.isEmpty else { return (nil, nil, nil) }
    let body = kept
    let cut = kept.count < total ? "the first \(kept.count) of \(total) bytes" : nil
    let lower = type.lowercased()
    if lower.hasPrefix("application/x-www-form-urlencoded") {
      return (redactor.redact(form: body, limit: bodyLimit), nil, cut)
    }
    if lower.contains("json") {
      return (redactor.redact(body: body, limit: bodyLimit), nil, cut)
    }
    if lower.hasPrefix("text/") || lower.contains("xml") || lower.contains("javascript"),
      let text = String(data: kept, encoding: .utf8)
    {
      let masked = CredentialShapes.mask(text) { self.redactor.isSensitive(field: String($0)) }
      return (KnownSecrets.mask(masked), nil, cut)
    }
    return (kept.base64EncodedString(), "base64", cut)
  }
}
