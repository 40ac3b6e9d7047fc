import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Turns an ``Endpoint`` into a `URLRequest`: base URL + path (or an absolute URL), query items
/// percent-encoded strictly (only RFC 3986 unreserved characters stay as they are, so `+`, `&`
/// and `=` inside values survive), default headers, a JSON body, endpoint headers last.
struct RequestBuilder: Sendable {
  let options: NetworkOptions
  let encoder: JSONEncoder
  /// The base URL, parsed once (nil if it has no host: every relative request then fails).
  private let base: URLComponents?

  init(options: NetworkOptions, encoder: JSONEncoder) {
    self.options = options
    self.encoder = encoder
    var base = URLComponents(url: options.baseURL, resolvingAgainstBaseURL: false)
    if base?.host?.isEmpty != false { base = nil }
    if let path = base?.percentEncodedPath, path.hasSuffix("/") {
      base?.percentEncodedPath = String(path.dropLast())
    }
    self.base = base
  }

  func build<E: Endpoint>(_ endpoint: E) throws -> URLRequest {
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
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.setValue(options.userAgent, forHTTPHeaderField: "User-Agent")
    if let body = endpoint.body {
      do {
        request.httpBody = try encoder.encode(body)
      } catch {
        throw NetworkError(.encoding(String(describing: error)), underlying: error)
      }
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    if let key = endpoint.idempotencyKey {
      request.setValue(key, forHTTPHeaderField: "Idempotency-Key")
    }
    for (name, value) in endpoint.headers.sorted(by: { $0.key < $1.key }) {
      request.setValue(value, forHTTPHeaderField: name)
    }
    return request
  }

  private func makeURL<E: Endpoint>(_ endpoint: E) throws -> URL {
    let path = endpoint.path
    var components: URLComponents
    if path.contains("://"), let absolute = URLComponents(string: path), absolute.scheme != nil {
      guard absolute.host?.isEmpty == false else { throw NetworkError(.invalidURL(path)) }
      components = absolute
    } else {
      guard var base else { throw NetworkError(.invalidURL(options.baseURL.absoluteString)) }
      let pieces = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
      let relative = String(pieces[0])
      guard !relative.contains(where: { $0 == " " || $0 == "\n" || $0 == "#" }),
        let encodedPath = relative.addingPercentEncoding(withAllowedCharacters: Self.pathAllowed)
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
    text.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? text
  }
}
