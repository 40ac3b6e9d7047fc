import Foundation

/// Limits that keep a hostile or broken client from exhausting the server.
public struct SandboxLimits: Sendable {
  /// Largest request line + headers, in bytes (431 beyond).
  public var maxHeaderBytes: Int
  /// Largest body, in bytes (413 beyond).
  public var maxBodyBytes: Int
  /// How long a connection may sit without sending a byte (408, or a quiet close).
  public var idleTimeout: Duration
  /// Most connections served at once; at the limit a new one takes the place of the least
  /// recently active.
  public var maxConnections: Int
  /// Most answers kept for `Idempotency-Key` replays (the oldest key goes first).
  public var maxIdempotentAnswers: Int
  /// Most bytes of answers kept for replays (bodies, headers and keys; the oldest go first).
  public var maxIdempotentBytes: Int

  /// Creates limits.
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

/// Incremental HTTP/1.1 request parser over a connection's byte buffer.
struct HTTPRequestParser {
  enum Outcome {
    /// A complete request and whether the connection may stay open after it.
    case request(SandboxRequest, keepAlive: Bool)
    /// More bytes are needed.
    case incomplete
    /// The bytes are not an acceptable request: answer `status` and close.
    case reject(status: Int, message: String)
  }

  let limits: SandboxLimits

  /// Tries to take one request off the front of `buffer`, removing the bytes it used.
  func parse(_ buffer: inout [UInt8], now: Date) -> Outcome {
    guard let headEnd = Self.findHeadEnd(buffer) else {
      return buffer.count > limits.maxHeaderBytes
        ? .reject(status: 431, message: "Request header fields too large")
        : .incomplete
    }
    guard headEnd.count <= limits.maxHeaderBytes else {
      return .reject(status: 431, message: "Request header fields too large")
    }
    guard let head = String(validating: buffer[..<headEnd.count], as: UTF8.self) else {
      return .reject(status: 400, message: "Request head is not valid UTF-8")
    }
    // Split on scalars: "\r\n" is a single Character, so a Character split would never see it.
    var lines = head.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map {
      line -> Substring in
      let text = Substring(line)
      return text.unicodeScalars.last == "\r" ? Substring(text.unicodeScalars.dropLast()) : text
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    guard let requestLine = lines.first else {
      return .reject(status: 400, message: "Empty request")
    }

    let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty,
      parts[0].allSatisfy({ $0.isASCII && $0.isUppercase }),
      parts[1].hasPrefix("/") || parts[1].hasPrefix("http://")
    else { return .reject(status: 400, message: "Malformed request line") }
    let version = parts[2]
    guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
      return .reject(
        status: version.hasPrefix("HTTP/") ? 505 : 400, message: "Unsupported HTTP version")
    }

    var headers: [(name: String, value: String)] = []
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else {
        return .reject(status: 400, message: "Malformed header line")
      }
      let name = line[..<colon]
      guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte)
      else {
        return .reject(status: 400, message: "Malformed header name")
      }
      headers.append(
        (String(name), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
    }

    if !HeaderFields.values("transfer-encoding", in: headers).isEmpty {
      return .reject(
        status: 501, message: "Transfer-Encoding is not supported; send Content-Length")
    }
    let lengths = HeaderFields.values("content-length", in: headers)
    var bodyLength = 0
    if let declared = lengths.first {
      guard Set(lengths).count == 1, let value = Self.digits(declared) else {
        return .reject(status: 400, message: "Invalid Content-Length")
      }
      bodyLength = value
    }
    guard bodyLength <= limits.maxBodyBytes else {
      return .reject(status: 413, message: "Request body too large")
    }
    let total = headEnd.count + headEnd.separator + bodyLength
    guard buffer.count >= total else { return .incomplete }

    let body = Data(buffer[(headEnd.count + headEnd.separator)..<total])
    buffer.removeFirst(total)

    let connection = HeaderFields.values("connection", in: headers).first?.lowercased() ?? ""
    let keepAlive =
      version == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
    var target = String(parts[1])
    if target.hasPrefix("http://"), let url = URL(string: target) {
      target = url.path.isEmpty ? "/" : url.path + (url.query.map { "?" + $0 } ?? "")
    }
    let (path, query) = Self.splitTarget(target)
    return .request(
      SandboxRequest(
        method: String(parts[0]), path: path, query: query, headers: headers, body: body,
        receivedAt: now),
      keepAlive: keepAlive)
  }

  /// Finds the blank line ending the head: `\r\n\r\n` (or a bare `\n\n`).
  static func findHeadEnd(_ buffer: [UInt8]) -> (count: Int, separator: Int)? {
    var index = 0
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
