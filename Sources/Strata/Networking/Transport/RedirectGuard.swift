import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Strips credentials from a redirect that leaves the original origin (scheme, host, port; an
/// https → http downgrade is a different origin).
struct RedirectGuard: Sendable {
  /// Always dropped on a cross-origin redirect, whatever the redactor says.
  static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]

  let extraHeaders: Set<String>
  let redactor: Redactor

  init(extraHeaders: Set<String> = [], redactor: Redactor = .standard) {
    self.extraHeaders = Set(extraHeaders.map { $0.lowercased() })
    self.redactor = redactor
  }

  /// Whether `name` carries a credential.
  func isCredential(_ name: String) -> Bool {
    let lower = name.lowercased()
    return Self.credentialHeaders.contains(lower) || extraHeaders.contains(lower)
      || redactor.isSensitive(header: name)
  }

  /// The redirected request, without credential headers when it leaves the origin of
  /// `original` (or of `redirecting`, the URL that answered with the redirect); nil — the
  /// redirect's own answer becomes the response — when it would take a body there: a 307 or
  /// 308 keeps the method and resends the body, and a POST's body may be a password or a
  /// refresh token. (FoundationNetworking on Linux drops the body of any redirected request;
  /// Apple's URLSession resends it.)
  func guarded(_ request: URLRequest, after original: URLRequest?, from redirecting: URL?)
    -> URLRequest?
  {
    guard let target = request.url else { return request }
    if let from = (original?.url ?? redirecting).flatMap(Origin.init), from.contains(target) {
      return request
    }
    let keepsMethod = !["GET", "HEAD"].contains(request.httpMethod?.uppercased() ?? "GET")
    // An upload task's body (a file) is in neither field: its length says it has one.
    let announced = original?.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init) ?? 0
    let hadBody =
      original?.httpBody?.isEmpty == false || original?.httpBodyStream != nil || announced > 0
    if request.httpBody?.isEmpty == false || request.httpBodyStream != nil
      || (keepsMethod && hadBody)
    {
      return nil
    }
    var stripped = request
    for name in (request.allHTTPHeaderFields ?? [:]).keys where isCredential(name) {
      stripped.setValue(nil, forHTTPHeaderField: name)
    }
    return stripped
  }
}
