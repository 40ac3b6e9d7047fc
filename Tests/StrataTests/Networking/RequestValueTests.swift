import Foundation
import Strata
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Request values")
struct RequestValueTests {
  struct NewThing: Encodable, Sendable { let title: String }

  @Test func aRequestValueIsSentAsItSays() async throws {
    let transport = MockTransport.successful(json: userJSON)
    let skip: Int? = nil
    let request = Request<TestUser>(
      path: "users/search", query: ["q": "em ily", "limit": "5", "skip": skip.map(String.init)],
      headers: ["X-Trace": "t1"])
    let user = try await makeService(transport).send(request)
    #expect(user == TestUser(id: 1, firstName: "Emily"))
    let sent = try #require(transport.requests.first)
    #expect(sent.httpMethod == "GET")
    #expect(sent.url?.absoluteString == "https://api.example/users/search?q=em%20ily&limit=5")
    #expect(sent.value(forHTTPHeaderField: "X-Trace") == "t1")
  }

  @Test func bodiesMethodsAndPerRequestSettings() async throws {
    let transport = MockTransport.statuses([503, 201], body: "{}")
    var create = Request<EmptyResponse>(
      path: "things", method: .post, body: NewThing(title: "t"),
      retryPolicy: RetryPolicy(maxRetries: 1, retryableMethods: [.post]))
    _ = try await makeService(transport).send(create)
    #expect(transport.requestCount == 2, "its own policy retried the POST")
    #expect(transport.requests.last.flatMap(\.httpBody) == Data(#"{"title":"t"}"#.utf8))

    create.retryPolicy = nil
    let error = await networkError {
      _ = try await makeService(MockTransport.statuses([503])).send(create)
    }
    #expect(
      error?.kind == .server(status: 503, body: Data("{}".utf8)), "the service's: no POST retry")
    #expect(error?.request == "POST /things")
  }

  @Test func anAuthenticatedRequestWithoutASessionIsNotSent() async {
    let transport = MockTransport.successful(json: userJSON)
    let session = AuthSession(origin: exampleOrigin, store: InMemoryTokenStore())
    let error = await networkError {
      _ = try await makeService(transport, authenticator: session).send(
        Request<TestUser>(path: "auth/me", requiresAuth: true))
    }
    #expect(error == NetworkError(.unauthorized(.notSignedIn), request: "GET /auth/me"))
    #expect(transport.requestCount == 0)
  }
}
