import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Records every attempt a service makes, and every answer its HTTP cache gives, as an entry
/// of an HTTP Archive (HAR 1.2), the request log browsers' developer tools, Charles, Proxyman
/// and Pulse open: method, URL, headers and bodies of request and answer as the transport saw
/// them (after every middleware), the time the exchange took (`wait` until the response head,
/// then `receive`), and Strata's own `_strata` member (the call, the attempt number — 0 for
/// the cache —, where the answer came from: `network`, `cache`, `revalidated` or `stale`, and
/// the error of an attempt that got no answer). A retry is an entry of its own.
///
/// Masked exactly as the logs are: secret header values, JSON members and query parameters
/// whose names say secret, a URL's password, credentials by their shape in any text, and every
/// value the process knows is secret (a token a server echoes back) — so the file holds no
/// token, password or `Authorization` value. Bodies are kept up to `bodyLimit` bytes: JSON and
/// text as text, anything else as base64; a streamed upload (a file, a multipart form) is
/// never read into it. It reads the service's records (``CallObserver``):
/// ```swift
/// let har = HARRecorder()
/// options.observer = har.observer
/// ```
public final class HARRecorder: @unchecked Sendable {
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

  /// The observer that records into this archive: set it as ``NetworkOptions/observer``, or
  /// with others in ``CallObserver/all(_:)``.
  public var observer: CallObserver {
    CallObserver(bodyLimit: bodyLimit) { [self] record in keep(record) }
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

  /// Keeps `record`'s exchange as an entry (a record without one is not an exchange).
  private func keep(_ record: RequestRecord) {
    guard let exchange = record.exchange else { return }
    let milliseconds = record.durationMilliseconds
    // Until the head (sending included), then the body; all of it `wait` when the transport
    // does not tell when the head came.
    let wait = min(milliseconds, record.firstByteMilliseconds ?? milliseconds)
    let answer =
      exchange.response.map {
        response($0, exchange.responseBody, max(exchange.responseBodySize, record.bytesReceived))
      }
      ?? HARLog.Response(
        status: 0, statusText: "", headers: [],
        content: HARLog.Content(
          size: 0, mimeType: "x-unknown", text: nil, encoding: nil, comment: "no answer"),
        bodySize: -1)
    let failure = record.error.map {
      UntrustedText.sanitize(KnownSecrets.mask($0), limit: 500)
    }
    let source: String =
      switch record.source {
      case .cache: "cache"
      case .revalidated: "revalidated"
      case .stale: "stale"
      case .network, nil: record.status == 304 ? "revalidated" : "network"
      }
    let entry = HARLog.Entry(
      startedDateTime: Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(
        exchange.started),
      time: milliseconds, request: request(exchange), response: answer,
      timings: HARLog.Timings(wait: wait, receive: milliseconds - wait),
      _strata: HARLog.Strata(
        request: record.request, attempt: record.attempt, source: source, error: failure))
    lock.withLock {
      entries.append((exchange.started, entry))
      // Trimmed a quarter past the limit at a time, so keeping one costs O(1) on average.
      if entries.count >= entryLimit + max(1, entryLimit / 4) {
        dropped += entries.count - entryLimit
        entries.removeFirst(entries.count - entryLimit)
      }
    }
  }

  private func request(_ exchange: HTTPExchange) -> HARLog.Request {
    let request = exchange.request
    let url = request.url.map(redactor.redact(url:)) ?? "?"
    let query = URLComponents(string: url)?.queryItems ?? []
    let headers = request.allHTTPHeaderFields ?? [:]
    let type = request.value(forHTTPHeaderField: "Content-Type") ?? ""
    var postData: HARLog.PostData?
    var size = 0
    let length = exchange.requestBodySize.flatMap { Int(exactly: $0) }
    if let bytes = exchange.requestBody {
      size = length ?? bytes.count
      let text = text(of: bytes, type: type, total: size).text
      postData = HARLog.PostData(mimeType: type, text: text ?? "")
    } else if exchange.requestBodySize != nil {
      // A file or a multipart form, streamed: never read into the log, whatever it holds.
      size = length ?? -1
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
