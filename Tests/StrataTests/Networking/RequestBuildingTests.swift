import Foundation
import Strata
import StrataConcurrency
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A type of its own that makes its request from its fields.
struct Probe: Endpoint {
  var path: String
  var method: HTTPMethod = .get
  var queryItems: [URLQueryItem] = []
  var headers: [String: String] = [:]
  var body: RequestBody? = nil

  var request: Request<EmptyResponse> {
    var request = Request<EmptyResponse>(path: path, method: method, body: body, headers: headers)
    request.queryItems = queryItems
    return request
  }
}

@Suite("Request building")
struct RequestBuildingTests {
  static func sent(_ endpoint: Probe, base: String = "https://api.example/v1") async throws
    -> URLRequest
  {
    let transport = MockTransport.successful(json: "{}")
    _ = try await makeService(transport, baseURL: base).send(endpoint)
    return try #require(transport.requests.first)
  }

  @Test func queryItemsAreStrictlyEncodedInOrder() async throws {
    let request = try await Self.sent(
      Probe(
        path: "search",
        queryItems: [
          URLQueryItem(name: "q", value: "a b"), URLQueryItem(name: "plus", value: "1+1"),
          URLQueryItem(name: "amp", value: "x&y=z"), URLQueryItem(name: "uni", value: "é✓"),
          URLQueryItem(name: "flag", value: nil), URLQueryItem(name: "a", value: "~._-"),
        ]))
    #expect(
      request.url?.absoluteString
        == "https://api.example/v1/search?q=a%20b&plus=1%2B1&amp=x%26y%3Dz&uni=%C3%A9%E2%9C%93&flag&a=~._-"
    )
  }

  @Test(arguments: [
    ("users", "https://api.example/v1/users"), ("/users", "https://api.example/v1/users"),
    ("users/5?select=age", "https://api.example/v1/users/5?select=age"),
    ("https://other.example/x?y=1", "https://other.example/x?y=1"),
  ])
  func pathsResolveAgainstTheBaseURL(_ path: String, _ expected: String) async throws {
    #expect(try await Self.sent(Probe(path: path)).url?.absoluteString == expected)
    #expect(
      try await Self.sent(Probe(path: path), base: "https://api.example/v1/").url?.absoluteString
        == expected)
  }

  @Test func defaultHeadersAndNoContentTypeWithoutBody() async throws {
    let request = try await Self.sent(Probe(path: "users"))
    #expect(request.httpMethod == "GET")
    #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
    #expect(request.value(forHTTPHeaderField: "User-Agent") == "StrataTests/1")
    #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
    #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
    #expect(request.httpBody == nil)
  }

  @Test func jsonBodySetsContentTypeAndEndpointHeadersComeLast() async throws {
    struct Body: Encodable, Sendable { let title: String }
    let request = try await Self.sent(
      Probe(
        path: "posts/add", method: .post, headers: ["accept": "text/plain", "X-Trace": "1"],
        body: .json(Body(title: "Hi"))))
    #expect(request.httpMethod == "POST")
    #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    #expect(request.value(forHTTPHeaderField: "Accept") == "text/plain")
    let accepts = request.allHTTPHeaderFields?.keys.filter { $0.lowercased() == "accept" }
    #expect(accepts?.count == 1, "replaced whatever its case, not sent twice")
    #expect(request.value(forHTTPHeaderField: "X-Trace") == "1")
    let body = try #require(request.httpBody)
    #expect(String(decoding: body, as: UTF8.self) == #"{"title":"Hi"}"#)
  }

  @Test(arguments: ["http://", "has space", "https://"])
  func invalidURLsThrowInsteadOfCrashing(_ path: String) async throws {
    let transport = MockTransport.successful(json: "{}")
    let error = await networkError { _ = try await makeService(transport).send(Probe(path: path)) }
    guard case .invalidURL = error?.kind else {
      Issue.record("expected .invalidURL for '\(path)', got \(String(describing: error))")
      return
    }
    #expect(transport.requestCount == 0)
  }

  @Test func authenticatedRequestsCarryABearerToken() async throws {
    let session = AuthSession(
      origin: exampleOrigin,
      store: InMemoryTokenStore(
        Credentials(accessToken: "tok-a", refreshToken: "r", origin: exampleOrigin)))
    let transport = MockTransport.successful(json: userJSON)
    _ = try await makeService(transport, authenticator: session).send(GetMe())
    #expect(transport.requests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer tok-a")
  }

  @Test func emptyResponseAcceptsEmptyAnd204Bodies() async throws {
    let transport = MockTransport { request, _ in
      try MockTransport.response(request, status: 204, body: "")
    }
    _ = try await makeService(transport).send(Probe(path: "x", method: .delete))
  }
}

@Suite("Decoding and errors")
struct NetworkErrorTests {
  struct Users: Decodable, Sendable {
    struct User: Decodable, Sendable {
      let id: Int
      let address: Address
    }
    struct Address: Decodable, Sendable { let city: String }
    let users: [User]
  }
  struct GetUsers: Endpoint {
    var request: Request<Users> { Request(path: "users") }
  }

  @Test func decodingErrorNamesStatusPathAndExcerpt() async throws {
    let body =
      #"{"users":[{"id":1,"address":{"city":"X"}},{"id":2,"address":{"city":7}}],"password":"hunter2"}"#
    let error = await networkError {
      _ = try await makeService(MockTransport.successful(json: body, status: 200)).send(GetUsers())
    }
    guard case .decoding(let failure) = error?.kind else {
      Issue.record("expected .decoding, got \(String(describing: error))")
      return
    }
    #expect(failure.status == 200)
    #expect(failure.codingPath == "users[1].address.city")
    #expect(failure.reason == "expected String")
    #expect(failure.bodyExcerpt.contains("\"id\":1"))
    #expect(!failure.bodyExcerpt.contains("hunter2"))
    #expect(
      failure.description.hasPrefix(
        "HTTP 200: could not decode 'users[1].address.city': expected String"))
  }

  @Test func garbageBodyIsADecodingErrorNotACrash() async throws {
    let error = await networkError {
      _ = try await makeService(MockTransport.successful(json: "<html>oops</html>")).send(GetUser())
    }
    guard case .decoding(let failure) = error?.kind else {
      Issue.record("expected .decoding, got \(String(describing: error))")
      return
    }
    #expect(failure.reason == "not valid JSON")
    #expect(failure.bodyExcerpt.contains("not JSON"))
  }

  @Test func errorsReadWell() {
    #expect(
      NetworkError.server(status: 404, serverMessage: "User with id '9' not found").description
        == "HTTP 404: User with id '9' not found")
    #expect(
      NetworkError.transport(URLError(.cannotConnectToHost)).description
        == "network error: could not connect to the server")
    #expect(RetryPolicy.isTransient(.unauthorized(.notSignedIn)) == false)
    #expect(RetryPolicy.isTransient(.server(status: 503, body: Data())))
    #expect(RetryPolicy.isTransient(.transport(URLError(.timedOut))))
  }

  /// Records whether decoding ran on the main thread.
  struct ThreadProbe: Decodable, Sendable {
    static let decodedOnMain = Lock<Bool?>(nil)
    init(from decoder: any Decoder) throws {
      Self.decodedOnMain.withLock { $0 = Thread.isMainThread }
    }
  }
  struct GetProbe: Endpoint {
    var request: Request<ThreadProbe> { Request(path: "x") }
  }

  @MainActor
  @Test func decodingDoesNotRunOnTheMainActor() async throws {
    _ = try await makeService(MockTransport.successful(json: "{}")).send(GetProbe())
    #expect(ThreadProbe.decodedOnMain.withLock { $0 } == false)
  }
}
