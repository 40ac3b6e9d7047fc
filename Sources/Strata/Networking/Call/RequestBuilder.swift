import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Turns a ``Request`` into a `URLRequest`: base URL + path (or an absolute URL), query items
/// percent-encoded strictly (only RFC 3986 unreserved characters stay as they are, so `+`, `&`
/// and `=` inside values survive), default headers, a JSON body, endpoint headers last.
struct RequestBuilder: Sendable {
  let options: NetworkOptions
  let encoder: JSONEncoder
  /// Where multipart bodies are written while they are sent.
  let staging: StagingArea
  /// The base URL, parsed once (nil if it has no host: every relative request then fails).
  private let base: URLComponents?

  init(options: NetworkOptions, encoder: JSONEncoder) {
    self.options = options
    self.encoder = encoder
    staging = StagingArea(directory: options.stagingDirectory)
    var base = URLComponents(url: options.baseURL, resolvingAgainstBaseURL: false)
    if base?.host?.isEmpty != false { base = nil }
    if let path = base?.percentEncodedPath, path.hasSuffix("/") {
      base?.percentEncodedPath = String(path.dropLast())
    }
    self.base = base
  }

  /// The request, and the file its body streams from (nil: none, or in `httpBody`), which
  /// each attempt opens afresh.
  func build<Response>(_ endpoint: Request<Response>) throws -> (URLRequest, StreamedBody?) {
    let url = try makeURL(endpoint)
    var request = URLRequest(url: url)
    request.httpMethod = endpoint.method.rawValue
    if let idle = options.idleTimeout {
      #if canImport(FoundationNetworking)
        // FoundationNetworking hands curl whole seconds (0.3 would time out at once): round up.
        request.timeoutInterval = max(1, idle.inSeconds.rounded(.up))
      #else
        request.timeoutInterval = idle.inSeconds
      #endif
    }
    // Gathered, then set at once: each `setValue` on Linux bridges to NSMutableURLRequest
    // and searches what is set, which cost more than the rest of the request. A later field
    // replaces an earlier one of the same name, whatever its case, as `setValue` would.
    var fields: [(name: String, value: String)] = [
      (
        "Accept",
        Response.self == Data.self || Response.self == String.self ? "*/*" : "application/json"
      ), ("User-Agent", options.userAgent),
    ]
    func set(_ name: String, _ value: String) {
      if let index = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) {
        fields[index] = (name, value)
      } else {
        fields.append((name, value))
      }
    }
    var streamed: StreamedBody?
    if let body = endpoint.body {
      let (type, bytes, file) = try encode(body)
      request.httpBody = bytes
      streamed = file
      set("Content-Type", type)
      if let file { set("Content-Length", String(file.length)) }
    }
    if let key = endpoint.idempotencyKey { set("Idempotency-Key", key) }
    if let version = endpoint.ifMatch { set("If-Match", version) }
    for (name, value) in endpoint.headers.sorted(by: { $0.key < $1.key }) { set(name, value) }
    request.allHTTPHeaderFields = Dictionary(fields, uniquingKeysWith: { _, last in last })
    return (request, streamed)
  }

  /// A body's content type, and its bytes or the file they stream from.
  private func encode(_ body: RequestBody) throws -> (String, Data?, StreamedBody?) {
    do {
      switch body {
      case .json(let value): return ("application/json", try encoder.encode(value), nil)
      case .form(let fields):
        let text = fields.map { Self.encode($0.name) + "=" + Self.encode($0.value) }
          .joined(separator: "&")
        return ("application/x-www-form-urlencoded", Data(text.utf8), nil)
      case .bytes(let data, let type): return (type, data, nil)
      case .file(let url, let type):
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
        return (type, nil, StreamedBody(path: url.path, length: size ?? 0, temporary: false))
      case .multipart(let form):
        return (form.contentType, nil, try staging.stage(form))
      }
    } catch {
      throw NetworkError(.encoding(String(describing: error)), underlying: error)
    }
  }

  private func makeURL<Response>(_ endpoint: Request<Response>) throws -> URL {
    let path = endpoint.path
    var components: URLComponents
    if Self.isAbsolute(path), let absolute = URLComponents(string: path), absolute.scheme != nil {
      guard absolute.host?.isEmpty == false else { throw NetworkError(.invalidURL(path)) }
      components = absolute
    } else {
      guard var base else { throw NetworkError(.invalidURL(options.baseURL.absoluteString)) }
      let pieces = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
      let relative = String(pieces[0])
      guard !relative.contains(where: { $0 == " " || $0 == "\n" || $0 == "#" }),
        let encodedPath = Self.encodedIfNeeded(relative, Self.pathBytes, Self.pathAllowed)
      else { throw NetworkError(.invalidURL(path)) }
      base.percentEncodedPath += "/" + encodedPath.drop { $0 == "/" }
      if pieces.count == 2 { base.percentEncodedQuery = String(pieces[1]) }
      components = base
    }
    if !endpoint.queryItems.isEmpty {
      let encoded = endpoint.queryItems.map { item in
        Self.encode(item.name) + (item.value.map { "=" + Self.encode($0) } ?? "")
      }.joined(separator: "&")
      components.percentEncodedQuery = [components.percentEncodedQuery, encoded]
        .compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: "&")
    }
    guard let url = components.url else { throw NetworkError(.invalidURL(path)) }
    return url
  }

  /// RFC 3986 unreserved characters; everything else in a query name or value is encoded.
  static let queryAllowed = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
  /// Path characters (unreserved, sub-delims, ':', '@', '/'); existing `%XX` is kept.
  static let pathAllowed = CharacterSet(
    charactersIn:
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/%")

  static func encode(_ text: String) -> String {
    encodedIfNeeded(text, queryBytes, queryAllowed) ?? text
  }

  /// The same sets as bytes: most paths and values need no encoding, and checking their bytes
  /// costs a fraction of Foundation's `addingPercentEncoding` (a cached answer's whole lookup
  /// cost less than encoding `users/1` did).
  private static let queryBytes = allowedBytes(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
  private static let pathBytes = allowedBytes(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/%")

  private static func allowedBytes(_ characters: String) -> [Bool] {
    var allowed = [Bool](repeating: false, count: 128)
    for byte in characters.utf8 { allowed[Int(byte)] = true }
    return allowed
  }

  /// `text` as it is when every byte is allowed, else percent-encoded by Foundation.
  private static func encodedIfNeeded(_ text: String, _ bytes: [Bool], _ set: CharacterSet)
    -> String?
  {
    if text.utf8.allSatisfy({ $0 < 128 && bytes[Int($0)] }) { return text }
    return text.addingPercentEncoding(withAllowedCharacters: set)
  }

  /// Whether `path` names a whole URL (`scheme://…`) rather than a path under the base.
  static func isAbsolute(_ path: some StringProtocol) -> Bool {
    // Bytes, not `contains("://")`: Foundation's overload of it is a locale-aware search.
    var matched = 0  // how much of "://" the bytes just read end with
    for byte in path.utf8 {
      switch (matched, byte) {
      case (_, UInt8(ascii: ":")): matched = 1
      case (1, UInt8(ascii: "/")): matched = 2
      case (2, UInt8(ascii: "/")): return true
      default: matched = 0
      }
    }
    return false
  }
}

extension String {
  /// Equal ignoring ASCII case: how HTTP compares field names.
  func caseInsensitiveEquals(_ other: String) -> Bool {
    func lower(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte | 0x20 : byte }
    return utf8.count == other.utf8.count
      && zip(utf8, other.utf8).allSatisfy { lower($0) == lower($1) }
  }
}
