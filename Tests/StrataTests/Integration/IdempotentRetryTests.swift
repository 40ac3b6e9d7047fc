import Foundation
import Strata
import StrataSandbox
import StrataTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("A POST with an Idempotency-Key may be retried (real URLSession against the sandbox)")
struct IdempotentRetryTests {
  struct NewPost: Encodable, Sendable {
    let title: String
    let body: String
    let userId: Int
  }
  struct Created: Decodable, Sendable, Equatable {
    let id: Int
    let title: String
  }

  static func create(key: String?, policy: RetryPolicy?) -> Request<Created> {
    Request(
      path: "posts/add", method: .post,
      body: .json(NewPost(title: "Once", body: "only", userId: 1)),
      retryPolicy: policy, idempotencyKey: key)
  }

  // A lost answer abandons a transfer: each test has its own URLSession, as abandoned
  // transfers can hold up the other transfers of theirs on Linux.

  /// The connection drops after the server created the post: retried with its key, the client
  /// gets the first answer and the server created exactly one post.
  @Test func aLostAnswerIsRetriedAndNothingIsCreatedTwice() async throws {
    try await withSandbox { server in
      server.faults.add(
        .init(method: "POST", path: "/posts/add", count: 1, action: .dropAfterHandling))
      // GET only: the key alone makes the POST retryable (the service widens a keyed
      // request's policy to every write method).
      let policy = RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(5))
      let key = UUID().uuidString
      let created = try await sandboxService(
        server, policy: policy, transport: URLSessionTransport()
      ).send(
        Self.create(key: key, policy: nil)
      ).value
      #expect(created == Created(id: 151, title: "Once"))
      #expect(server.changesDone(path: "/posts/add") == 1, "one post on the server")
      let sent = server.journal.entries.filter { $0.path == "/posts/add" }
      #expect(sent.count == 2 && sent.allSatisfy { $0.header("Idempotency-Key") == key })
    }
  }

  @Test func withoutAKeyThePostIsNotRetried() async throws {
    try await withSandbox { server in
      server.faults.add(
        .init(method: "POST", path: "/posts/add", count: 1, action: .dropAfterHandling))
      let error = await networkError {
        _ = try await sandboxService(server, transport: URLSessionTransport()).send(
          Self.create(key: nil, policy: .default))
      }
      #expect(
        error?.kind == .transport(URLError(.networkConnectionLost))
          || error.map(RetryPolicy.isTransient) == true)
      #expect(server.journal.count(method: "POST", path: "/posts/add") == 1, "sent once")
    }
  }
}
