import Foundation

/// A response a route produces: status, headers and body bytes.
public struct SandboxResponse: Sendable {
  /// The status code.
  public var status: Int
  /// Extra header fields (Content-Length and Connection are added when sending).
  public var headers: [(name: String, value: String)]
  /// The body bytes.
  public var body: Data

  /// Creates a response.
  /// - Parameters:
  ///   - status: The status code.
  ///   - headers: Header fields.
  ///   - body: Body bytes.
  public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A JSON response from already-encoded bytes.
  /// - Parameters:
  ///   - status: The status code.
  ///   - body: JSON bytes.
  /// - Returns: The response with `Content-Type: application/json; charset=utf-8`.
  public static func json(_ status: Int = 200, _ body: Data) -> SandboxResponse {
    SandboxResponse(
      status: status, headers: [("Content-Type", "application/json; charset=utf-8")], body: body)
  }

  /// A JSON response from a JSON-compatible object (dictionaries, arrays, strings, numbers).
  /// - Parameters:
  ///   - status: The status code.
  ///   - object: The value to serialise.
  /// - Returns: The response.
  public static func json(_ status: Int = 200, object: Any) -> SandboxResponse {
    let data =
      (try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    return json(status, data)
  }

  /// DummyJSON's error shape: `{"message": "…"}`.
  /// - Parameters:
  ///   - status: The status code.
  ///   - message: The message.
  /// - Returns: The response.
  public static func message(_ status: Int, _ message: String) -> SandboxResponse {
    json(status, object: ["message": message])
  }

  /// A response that echoes `request` back, as careless or hostile servers do: the
  /// `Authorization` value in the message, and every header and the body as fields.
  /// - Parameters:
  ///   - request: The request to echo.
  ///   - status: The status to answer with.
  /// - Returns: The response.
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

  /// The standard reason phrase for a status code.
  static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 201: "Created"
    case 204: "No Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 411: "Length Required"
    case 413: "Content Too Large"
    case 418: "I'm a teapot"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    case 505: "HTTP Version Not Supported"
    default: "Status \(status)"
    }
  }

  /// The bytes on the wire. HEAD responses keep their Content-Length but send no body.
  func serialized(keepAlive: Bool, includeBody: Bool) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
    for (name, value) in headers where name.lowercased() != "content-length" {
      head += "\(name): \(value)\r\n"
    }
    head += "Content-Length: \(body.count)\r\n"
    head += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
    var bytes = Array(head.utf8)
    if includeBody { bytes.append(contentsOf: body) }
    return bytes
  }
}
