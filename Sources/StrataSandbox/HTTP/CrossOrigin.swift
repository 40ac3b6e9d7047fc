import Foundation

/// The real service's `cors({ origin: true, credentials: true })` and the `Vary` its
/// compression middleware adds: every answer says it varies by `Origin` (and by
/// `Accept-Encoding` when its type could be compressed) and allows credentials, a request
/// with an `Origin` gets it reflected, and any `OPTIONS` request is a preflight answered
/// `204` before routing.
enum CrossOrigin {
  static let allowedMethods = "GET,HEAD,PUT,PATCH,POST,DELETE"

  /// The preflight answer to an `OPTIONS` request, whatever its path.
  static func preflight(_ request: SandboxRequest) -> SandboxResponse {
    var headers = origin(request)
    headers.append(("Vary", "Origin, Access-Control-Request-Headers"))
    headers.append(("Access-Control-Allow-Credentials", "true"))
    headers.append(("Access-Control-Allow-Methods", allowedMethods))
    if let asked = request.header("Access-Control-Request-Headers") {
      headers.append(("Access-Control-Allow-Headers", asked))
    }
    return SandboxResponse(status: 204, headers: headers)
  }

  /// `response` with the headers every non-preflight answer carries.
  static func finish(_ response: SandboxResponse, for request: SandboxRequest) -> SandboxResponse {
    var response = response
    response.headers.removeAll { $0.name.lowercased() == "vary" }
    let vary = ContentCoding.isCompressible(response) ? "Origin, Accept-Encoding" : "Origin"
    response.headers.insert(
      contentsOf: origin(request) + [
        ("Vary", vary), ("Access-Control-Allow-Credentials", "true"),
      ], at: 0)
    return response
  }

  private static func origin(_ request: SandboxRequest) -> [(name: String, value: String)] {
    request.header("Origin").map { [("Access-Control-Allow-Origin", $0)] } ?? []
  }
}
