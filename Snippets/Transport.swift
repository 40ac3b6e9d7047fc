import Foundation
import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// snippet.hide
let config = try Config(overrides: ["API": "https://api.example.com"])
let api = try config.url("API")
// snippet.show
/// Answers from bodies recorded by path, as a server would: a fake for an app's own tests,
/// which keeps the size limit a real transport keeps.
struct Replay: HTTPTransport {
  let bodies: [String: String]

  func send(_ request: URLRequest, limits: TransferLimits) async throws
    -> (Data, HTTPURLResponse)
  {
    guard let url = request.url, let body = bodies[url.path],
      let response = HTTPURLResponse(
        url: url, statusCode: 200, httpVersion: "HTTP/1.1",
        headerFields: ["Content-Type": "application/json"])
    else { throw URLError(.fileDoesNotExist) }
    guard body.utf8.count <= limits.maxResponseSize else {
      throw URLError(.dataLengthExceedsMaximum)
    }
    return (Data(body.utf8), response)
  }
}

struct User: Decodable, Sendable {
  let id: Int
  let firstName: String
}

let replay = Replay(bodies: ["/users/1": #"{"id": 1, "firstName": "Emily"}"#])

// Tested alone, called as NetworkService calls it: with one exchange's limits.
let tight = TransferLimits(deadline: .seconds(5), maxResponseSize: 16)
do {
  _ = try await replay.send(URLRequest(url: api.appendingPathComponent("users/1")), limits: tight)
} catch let error as URLError where error.code == .dataLengthExceedsMaximum {
  print("over 16 bytes: refused")
}

// Or behind the whole service: retries, decoding and redaction work as over the network.
let service = NetworkService(options: NetworkOptions(baseURL: api), transport: replay)
print(try await service.send(Request<User>(path: "users/1")).value.firstName)
