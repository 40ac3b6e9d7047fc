import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a call tells about itself: a trace of every attempt at `trace` level (headers and
/// bodies redacted), a ``RequestRecord`` per attempt, and the short labels they use.
extension NetworkService {
  func trace(_ request: URLRequest, attempt: Int) {
    if logger.isEnabled(.debug) {
      logger.debug(
        "→ \(request.httpMethod ?? "GET") \(request.url.map(redactor.redact(url:)) ?? "?") (attempt \(attempt))"
      )
    }
    guard logger.isEnabled(.trace) else { return }
    logger.trace(
      "  request headers: \(redactor.redact(headers: request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key })"
    )
    let type = request.value(forHTTPHeaderField: "Content-Type") ?? ""
    if let body = request.httpBody {
      let shown =
        type.hasPrefix("application/x-www-form-urlencoded")
        ? redactor.redact(form: body) : redactor.redact(body: body)
      logger.trace("  request body: \(shown)")
    } else if let length = request.value(forHTTPHeaderField: "Content-Length") {
      // A file or a multipart form (the only bodies given a length up front, since they are
      // streamed): never read into a log, whatever its parts hold.
      logger.trace("  request body: <\(length) bytes of \(type), streamed>")
    }
  }

  func trace(_ response: HTTPURLResponse, _ data: Data) {
    guard logger.isEnabled(.trace) else { return }
    let headers = response.allHeaderFields.reduce(into: [String: String]()) {
      $0[String(describing: $1.key)] = String(describing: $1.value)
    }
    logger.trace(
      "  response headers: \(redactor.redact(headers: headers).sorted { $0.key < $1.key })")
    logger.trace("  response body: \(redactor.redact(body: data))")
  }

  /// Emits the attempt's ``RequestRecord`` once its outcome is decided: to
  /// ``NetworkOptions/observer``, and as the fields of the `networking` debug line.
  func record(
    _ outcome: Result<(Data, HTTPURLResponse), NetworkError>, _ next: Next, of call: Call,
    retriedBecause: String?, duration: Duration, source: ResponseSource? = nil,
    received: Int? = nil, elements: Int? = nil
  ) {
    let logs = logger.isEnabled(.debug)
    guard logs || options.observer != nil else { return }
    let request = call.request
    var record = RequestRecord(
      request: call.label, method: request.httpMethod ?? "GET",
      url: request.url.map(redactor.redact(url:)) ?? "?", status: nil,
      durationMilliseconds: duration.inSeconds * 1000,
      bytesSent: request.httpBody?.count ?? call.streamed?.length ?? 0,
      bytesReceived: 0, attempt: call.attempt,
      retriedBecause: retriedBecause)
    switch outcome {
    case .success(let (data, response)):
      record.status = response.statusCode
      // A download's body went to its file, not into `data`.
      record.bytesReceived = received ?? data.count
    case .failure(let error):
      record.error = Self.reason(error)
    }
    if case .retry(let retry, _) = next { record.retry = retry }
    record.source = source
    record.events = elements
    record.firstByteMilliseconds = call.head.firstByte.map { $0.inSeconds * 1000 }
    record.exchange = call.capture?.exchange
    options.observer?.observe(record)
    if logs {
      let outcomeText = record.status.map(String.init) ?? "failed (\(record.error ?? "?"))"
      logger.log(
        .debug,
        "← \(outcomeText) \(call.label) in \(duration.shortDescription), \(record.bytesReceived) bytes\(elements.map { ", \($0) streamed" } ?? "")",
        fields: record.fields)
    }
  }

  /// `GET /users/1` for logs and retry notices, from the endpoint's path with plain string
  /// work (reading `URL.path` costs microseconds per call on Linux).
  static func label(_ method: HTTPMethod, _ path: String) -> String {
    let withoutQuery =
      path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    if RequestBuilder.isAbsolute(withoutQuery) {
      return
        "\(method) \(URLComponents(string: String(withoutQuery))?.path ?? String(withoutQuery))"
    }
    return "\(method) /" + withoutQuery.drop { $0 == "/" }
  }

  static func reason(_ error: NetworkError) -> String {
    switch error.kind {
    case .server(let status, _): String(status)
    // In words, as the call's failure says it, with the code for a program to match on.
    case .transport(let urlError):
      NetworkError.describe(urlError).hasPrefix("URLError")
        ? "URLError \(urlError.code.rawValue)"
        : "\(NetworkError.describe(urlError)) (URLError \(urlError.code.rawValue))"
    default: error.description
    }
  }
}
