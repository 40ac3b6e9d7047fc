import Foundation

/// A response a route produces: status, headers and body bytes.
public struct SandboxResponse: Sendable {
  public var status: Int
  /// Extra header fields (Content-Length and Connection are added when sending).
  public var headers: [(name: String, value: String)]
  public var body: Data

  public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
    (self.status, self.headers, self.body) = (status, headers, body)
  }

  /// The value of header field `name` (any letter case), if set.
  public func header(_ name: String) -> String? {
    headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }

  /// A JSON response from already-encoded bytes.
  /// - Returns: The response with `Content-Type: application/json; charset=utf-8`.
  public static func json(_ status: Int = 200, _ body: Data) -> SandboxResponse {
    SandboxResponse(
      status: status, headers: [("Content-Type", "application/json; charset=utf-8")], body: body)
  }

  /// A JSON response from a JSON-compatible object (dictionaries, arrays, strings, numbers).
  public static func json(_ status: Int = 200, object: Any) -> SandboxResponse {
    let data =
      (try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    return json(status, data)
  }

  /// DummyJSON's error shape: `{"message": "…"}`.
  public static func message(_ status: Int, _ message: String) -> SandboxResponse {
    json(status, object: ["message": message])
  }

  /// A response that echoes `request` back, as careless or hostile servers do: the
  /// `Authorization` value in the message, and every header and the body as fields.
  /// - Parameter request: The request to echo.
  /// - Parameter status: The status to answer with.
  public static func echo(_ request: SandboxRequest, status: Int) -> SandboxResponse {
    var headers: [String: String] = [:]
    for (name, value) in request.headers { headers[name] = value }
    return json(
      status,
      object: [
        "message":
          "rejected \(request.method) \(request.path) with Authorization: \(request.header("Authorization") ?? "none")",
        "headers": headers,
        "body": String(decoding: request.body, as: UTF8.self),
      ])
  }

  /// Reason phrases by status: the codes DummyJSON knows (its `/http` route answers exactly
  /// these), which include every status the sandbox sends.
  static let reasonPhrases: [Int: String] = [
    200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information",
    204: "No Content", 205: "Reset Content", 206: "Partial Content", 207: "Multi-Status",
    208: "Already Reported", 226: "IM Used", 300: "Multiple Choices", 301: "Moved Permanently",
    302: "Found", 303: "See Other", 304: "Not Modified", 305: "Use Proxy",
    307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
    402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
    406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout",
    409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed",
    413: "Request Entity Too Large", 414: "Request-URI Too Long", 415: "Unsupported Media Type",
    416: "Requested Range Not Satisfiable", 417: "Expectation Failed", 418: "I'm a teapot",
    420: "Enhance Your Calm", 422: "Unprocessable Entity", 423: "Locked",
    424: "Failed Dependency", 426: "Upgrade Required", 428: "Precondition Required",
    429: "Too Many Requests", 431: "Request Header Fields Too Large", 444: "No Response",
    449: "Retry With", 450: "Blocked by Windows Parental Controls",
    451: "Unavailable For Legal Reasons", 499: "Client Closed Request",
    500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
    503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    506: "Variant Also Negotiates", 507: "Insufficient Storage", 508: "Loop Detected",
    510: "Not Extended", 511: "Network Authentication Required",
    598: "Network Read Timeout Error", 599: "Network Connect Timeout Error",
  ]

  /// The reason phrase for a status code.
  static func reason(_ status: Int) -> String { reasonPhrases[status] ?? "Status \(status)" }

  /// The bytes on the wire. HEAD responses keep their Content-Length but send no body; a
  /// 304 has none (on a 304 it would state the stored representation's length, not 0).
  func serialized(keepAlive: Bool, includeBody: Bool) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
    for (name, value) in headers where name.lowercased() != "content-length" {
      head += "\(name): \(value)\r\n"
    }
    if status != 304 { head += "Content-Length: \(body.count)\r\n" }
    // Apple's URLSession holds back up to 512 bytes of an answer it may sniff the type of.
    head += "X-Content-Type-Options: nosniff\r\n"
    head += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
    var bytes = Array(head.utf8)
    if includeBody { bytes.append(contentsOf: body) }
    return bytes
  }
}
