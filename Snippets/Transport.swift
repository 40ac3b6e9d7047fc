import Foundation
import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Answers from bodies recorded by path, as a server would: a fake for an app's own tests.
struct Replay: HTTPTransport {
  let bodies: [String: String]

  func send(_ request: URLRequest, body: HTTPBody?, limits: TransferLimits) async throws
    -> (HTTPURLResponse, HTTPBody)
  {
    guard let url = request.url, let answer = bodies[url.path],
      let response = HTTPURLResponse(
        url: url, statusCode: 200, httpVersion: "HTTP/1.1",
        headerFields: ["Content-Type": "application/json"])
    else { throw URLError(.fileDoesNotExist) }
    return (response, HTTPBody(Data(answer.utf8)))
  }
}

/// Forwards to another transport, counting the answers: downloads and event streams still
/// flow through it, because the body is handed on as it arrives.
struct Counting: HTTPTransport {
  let base: any HTTPTransport
  let answers = Answers()

  func send(_ request: URLRequest, body: HTTPBody?, limits: TransferLimits) async throws
    -> (HTTPURLResponse, HTTPBody)
  {
    let (response, answer) = try await base.send(request, body: body, limits: limits)
    await answers.count()
    return (response, answer)
  }
}

actor Answers {
  private(set) var total = 0
  func count() { total += 1 }
}

struct User: Decodable, Sendable {
  let id: Int
  let firstName: String
}

let api = try Config(overrides: ["API": "https://api.example.com"]).url("API")
let replay = Replay(bodies: ["/users/1": #"{"id": 1, "firstName": "Emily"}"#])

// Tested alone, called as NetworkService calls it, the body read as it reads one: whole,
// within a size limit.
let (_, body) = try await replay.send(
  URLRequest(url: api.appendingPathComponent("users/1")), body: nil,
  limits: TransferLimits(deadline: .seconds(5)))
do {
  _ = try await body.collect(upTo: 16)
} catch let error as URLError where error.code == .dataLengthExceedsMaximum {
  print("over 16 bytes: refused")
}

// Or behind the whole service: retries, decoding and redaction work as over the network.
let counting = Counting(base: replay)
let service = NetworkService(options: NetworkOptions(baseURL: api), transport: counting)
print(try await service.send(Request<User>(path: "users/1")).value.firstName)
print("answers:", await counting.answers.total)
