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
    let user = try await makeService(transport).send(request).value
    #expect(user == TestUser(id: 1, firstName: "Emily"))
    let sent = try #require(transport.requests.first)
    #expect(sent.httpMethod == "GET")
    #expect(sent.url?.absoluteString == "https://api.example/users/search?q=em%20ily&limit=5")
    #expect(sent.value(forHTTPHeaderField: "X-Trace") == "t1")
  }

  @Test func bodiesMethodsAndPerRequestSettings() async throws {
    let transport = MockTransport.statuses([503, 201], body: "{}")
    var create = Request<EmptyResponse>(
      path: "things", method: .post, body: .json(NewThing(title: "t")),
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

@Suite("RequestRecord as JSON")
struct RequestRecordJSONTests {
  /// The typed source is written as `"cache"` and `"cacheAge"` (what `--http-log` lines have
  /// always said), and read back the same; a label that names no outcome is an error.
  @Test func theSourceRoundTripsAsCacheAndAge() throws {
    let line = #"""
      {"request":"GET /users/1","method":"GET","url":"https://api.example/users/1",
       "status":503,"durationMilliseconds":1.5,"bytesSent":0,"bytesReceived":10,"attempt":2,
       "retryReason":"503","cache":"stale","cacheAge":12}
      """#
    let record = try JSONDecoder().decode(RequestRecord.self, from: Data(line.utf8))
    #expect(record.source == .stale(age: 12) && record.retriedBecause == "503")
    let written = String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
    #expect(written.contains(#""cache":"stale""#) && written.contains(#""cacheAge":12"#))
    #expect(try JSONDecoder().decode(RequestRecord.self, from: Data(written.utf8)) == record)
    let odd = line.replacingOccurrences(of: #""stale""#, with: #""fresh""#)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(RequestRecord.self, from: Data(odd.utf8))
    }
  }
}
