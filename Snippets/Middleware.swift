import Foundation
import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Adds the app's version to every attempt that does not carry one.
struct ClientVersion: HTTPMiddleware {
  let version: String

  func intercept(
    _ request: URLRequest, body: HTTPBody?, attempt: RequestAttempt, next: HTTPMiddlewareNext
  ) async throws -> (HTTPURLResponse, HTTPBody) {
    var request = request
    if request.value(forHTTPHeaderField: "X-Client-Version") == nil {
      request.setValue(version, forHTTPHeaderField: "X-Client-Version")
    }
    return try await next(request, body)
  }
}

let config = try Config(overrides: ["API": "https://dummyjson.com"])
let api = try config.url("API")
var options = try NetworkOptions(config: config, baseURL: api)
// DefaultHeaders adds fixed fields, and masks the values of secret ones (X-Api-Key, …).
options.middleware = [DefaultHeaders(["X-Client": "MyApp"]), ClientVersion(version: "1.4.2")]
options.observer = CallObserver { record in  // every attempt: status, duration, the coming retry
  if let retry = record.retry { print("retrying:", retry) }
}
