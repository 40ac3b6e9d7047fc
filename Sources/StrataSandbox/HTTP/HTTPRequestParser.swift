import Foundation

/// Limits that keep a hostile or broken client from exhausting the server.
public struct SandboxLimits: Sendable {
  /// Largest request line + headers, in bytes (431 beyond).
  public var maxHeaderBytes: Int
  /// Largest body, in bytes (413 beyond).
  public var maxBodyBytes: Int
  /// How long a connection may sit without sending a byte (408, or a quiet close).
  public var idleTimeout: Duration
  /// Most connections served at once; at the limit a new one takes the place of
  /// the least recently active.
  public var maxConnections: Int
  /// Most answers kept for `Idempotency-Key` replays (the oldest key goes first).
  public var maxIdempotentAnswers: Int
  /// Most bytes of answers kept for replays (bodies, headers and keys; the oldest go first).
  public var maxIdempotentBytes: Int

  public init(
    maxHeaderBytes: Int = 16 * 1024, maxBodyBytes: Int = 1024 * 1024,
    idleTimeout: Duration = .seconds(10), maxConnections: Int = 512,
    maxIdempotentAnswers: Int = 10_000, maxIdempotentBytes: Int = 16 << 20
  ) {
    self.maxHeaderBytes = maxHeaderBytes
    self.maxBodyBytes = maxBodyBytes
    self.idleTimeout = idleTimeout
    self.maxConnections = maxConnections
    self.maxIdempotentAnswers = maxIdempotentAnswers
    self.maxIdempotentBytes = maxIdempotentBytes
  }
}

/// Incremental HTTP/1.1 request parser over a connection's byte buffer, one per connection.
///
/// Work is linear in the bytes received: the search for the end of the head resumes where the
/// last one stopped, and a parsed head is kept while its body arrives. (Rescanning the whole
/// buffer on every read made a 16 KiB head sent a byte at a time cost 0.27 s of CPU.)
struct HTTPRequestParser {
  enum Outcome {
    /// A complete request and whether the connection may stay open after it.
    case request(SandboxRequest, keepAlive: Bool)
    /// More bytes are needed.
    case incomplete
    /// The bytes are not an acceptable request: answer `status` and close.
    case reject(status: Int, message: String)
  }

  /// A request's head, parsed, waiting for `bodyLength` bytes after `bodyStart`.
  private struct Head {
    var method: String
    var target: String
    var headers: [(name: String, value: String)]
    var keepAlive: Bool
    var bodyStart: Int
    var bodyLength: Int
  }

  let limits: SandboxLimits
  /// Bytes of the buffer already searched for the end of the head.
  private var searched = 0
  private var head: Head?
  /// Bytes examined while looking for heads, for the test that proves the work is linear.
  private(set) var bytesSearched = 0

  init(limits: SandboxLimits) { self.limits = limits }

  /// Tries to take one request off the front of `buffer`, removing the bytes it used; between
  /// calls only appends to `buffer` are allowed.
  mutating func parse(_ buffer: inout [UInt8], now: Date) -> Outcome {
    if head == nil {
      // The separator may straddle the previous search's end: step back over its 3 bytes.
      let from = max(0, searched - 3)
      guard let end = Self.findHeadEnd(buffer, from: from) else {
        bytesSearched += buffer.count - from
        searched = buffer.count
        return buffer.count > limits.maxHeaderBytes
          ? .reject(status: 431, message: "Request header fields too large")
          : .incomplete
      }
      bytesSearched += end.count + end.separator - from
      switch Self.parseHead(buffer[..<end.count], limits: limits) {
      case .success(var parsed):
        parsed.bodyStart = end.count + end.separator
        head = parsed
      case .failure(let rejection):
        return .reject(status: rejection.status, message: rejection.message)
      }
    }
    guard let head, buffer.count >= head.bodyStart + head.bodyLength else { return .incomplete }
    let total = head.bodyStart + head.bodyLength
    let body = Data(buffer[head.bodyStart..<total])
    buffer.removeFirst(total)
    self.head = nil
    searched = 0
    let (path, query) = Self.splitTarget(head.target)
    return .request(
      SandboxRequest(
        method: head.method, path: path, query: query, headers: head.headers, body: body,
        receivedAt: now),
      keepAlive: head.keepAlive)
  }

  private struct Rejection: Error {
    var status: Int
    var message: String
    init(_ status: Int, _ message: String) {
      (self.status, self.message) = (status, message)
    }
  }

  /// The request line and header fields (`bytes` ends before the blank line).
  private static func parseHead(_ bytes: ArraySlice<UInt8>, limits: SandboxLimits) -> Result<
    Head, Rejection
  > {
    guard bytes.count <= limits.maxHeaderBytes else {
      return .failure(Rejection(431, "Request header fields too large"))
    }
    guard let text = String(bytes: bytes, encoding: .utf8) else {
      return .failure(Rejection(400, "Request head is not valid UTF-8"))
    }
    // Split on scalars: "\r\n" is a single Character, so a Character split would never see it.
    var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map {
      line -> Substring in
      let text = Substring(line)
      return text.unicodeScalars.last == "\r" ? Substring(text.unicodeScalars.dropLast()) : text
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    guard let requestLine = lines.first else { return .failure(Rejection(400, "Empty request")) }

    let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty,
      parts[0].allSatisfy({ $0.isASCII && $0.isUppercase }),
      parts[1].hasPrefix("/") || parts[1].hasPrefix("http://")
    else { return .failure(Rejection(400, "Malformed request line")) }
    let version = parts[2]
    guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
      return .failure(
        Rejection(version.hasPrefix("HTTP/") ? 505 : 400, "Unsupported HTTP version"))
    }
    let headers: [(name: String, value: String)]
    switch Self.headerFields(lines.dropFirst()) {
    case .success(let fields): headers = fields
    case .failure(let rejection): return .failure(rejection)
    }

    let bodyLength: Int
    switch Self.bodyLength(headers, limits: limits) {
    case .success(let length): bodyLength = length
    case .failure(let rejection): return .failure(rejection)
    }
    let connection = HeaderFields.values("connection", in: headers).first?.lowercased() ?? ""
    let keepAlive =
      version == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
    var target = String(parts[1])
    if target.hasPrefix("http://"), let url = URL(string: target) {
      target = url.path.isEmpty ? "/" : url.path + (url.query.map { "?" + $0 } ?? "")
    }
    return .success(
      Head(
        method: String(parts[0]), target: target, headers: headers, keepAlive: keepAlive,
        bodyStart: 0, bodyLength: bodyLength))
  }

  /// The body's length as `Content-Length` gives it (0 without one): one value, digits only,
  /// within the limit; chunked bodies are refused.
  private static func bodyLength(
    _ headers: [(name: String, value: String)], limits: SandboxLimits
  ) -> Result<Int, Rejection> {
    if !HeaderFields.values("transfer-encoding", in: headers).isEmpty {
      return .failure(
        Rejection(501, "Transfer-Encoding is not supported; send Content-Length"))
    }
    let lengths = HeaderFields.values("content-length", in: headers)
    var bodyLength = 0
    if let declared = lengths.first {
      guard Set(lengths).count == 1, let value = Self.digits(declared) else {
        return .failure(Rejection(400, "Invalid Content-Length"))
      }
      bodyLength = value
    }
    guard bodyLength <= limits.maxBodyBytes else {
      return .failure(Rejection(413, "Request body too large"))
    }
    return .success(bodyLength)
  }

  private static func headerFields(_ lines: ArraySlice<Substring>) -> Result<
    [(name: String, value: String)], Rejection
  > {
    var headers: [(name: String, value: String)] = []
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else {
        return .failure(Rejection(400, "Malformed header line"))
      }
      let name = line[..<colon]
      guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else {
        return .failure(Rejection(400, "Malformed header name"))
      }
      headers.append(
        (String(name), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
    }
    return .success(headers)
  }

  /// Finds the blank line ending the head: `\r\n\r\n` (or a bare `\n\n`).
  static func findHeadEnd(_ buffer: [UInt8], from start: Int = 0) -> (
    count: Int, separator: Int
  )? {
    var index = start
    while index + 1 < buffer.count {
      if buffer[index] == 0x0A {
        if buffer[index + 1] == 0x0A { return (index + 1, 1) }
        if buffer[index + 1] == 0x0D, index + 2 < buffer.count, buffer[index + 2] == 0x0A {
          return (index + 1, 2)
        }
      }
      index += 1
    }
    return nil
  }

  /// A number written in ASCII digits only (no sign or spaces), within `Int`; nil otherwise.
  static func digits(_ text: String) -> Int? {
    guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
    return Int(text)
  }

  /// RFC 9110 `tchar`: letters, digits and ``!#$%&'*+-.^_`|~``.
  static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }

  static func splitTarget(_ target: String) -> (String, [(name: String, value: String)]) {
    let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let path = String(pieces[0]).removingPercentEncoding ?? String(pieces[0])
    guard pieces.count == 2 else { return (path, []) }
    let query = pieces[1].split(separator: "&").map { pair -> (name: String, value: String) in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
      }
      return (decode(parts[0]), parts.count == 2 ? decode(parts[1]) : "")
    }
    return (path, query)
  }
}
