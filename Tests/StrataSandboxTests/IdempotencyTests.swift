import Foundation
import Testing

@testable import StrataSandbox

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("The sandbox honours Idempotency-Key")
struct IdempotencyTests {
  static var post: [String: Any] { ["title": "Once", "body": "only", "userId": 1] }

  @Test func aRepeatGetsTheFirstAnswerAndCreatesNothing() async throws {
    try await Sandbox.with { sandbox throws in
      let key = ["Idempotency-Key": "key-1"]
      let first = try await sandbox.send("POST", "/posts/add", json: Self.post, headers: key)
      let again = try await sandbox.send("POST", "/posts/add", json: Self.post, headers: key)
      #expect(first.status == 201 && again.status == 201)
      #expect(again.data == first.data && again.header("Idempotent-Replayed") == "true")
      #expect(first.header("Idempotent-Replayed") == nil)
      #expect(sandbox.server.changesDone(path: "/posts/add") == 1)
      #expect(sandbox.server.journal.count(method: "POST", path: "/posts/add") == 2)
    }
  }

  /// Kept answers are bounded by bytes and by count, oldest out first: the newest key still
  /// replays, the oldest is done again.
  @Test(arguments: [(answers: 1_000, bytes: 64 * 1024), (answers: 3, bytes: 16 << 20)])
  func keptAnswersAreBoundedOldestOutFirst(_ bound: (answers: Int, bytes: Int)) async throws {
    let limits = SandboxLimits(maxIdempotentAnswers: bound.answers, maxIdempotentBytes: bound.bytes)
    try await Sandbox.with(configuration: .init(limits: limits)) { sandbox throws in
      var post = Self.post
      // Random text: the kept answer is the one sent, gzip included, and gzip would shrink a
      // repeated letter to nothing.
      post["body"] = (0..<300).map { _ in UUID().uuidString }.joined()
      for index in 0..<20 {
        let sent = try await sandbox.send(
          "POST", "/posts/add", json: post, headers: ["Idempotency-Key": "bulk-\(index)"])
        #expect(sent.status == 201)
      }
      let kept = sandbox.server.keptIdempotentAnswers
      #expect(kept.bytes <= bound.bytes && kept.answers <= bound.answers, "\(kept)")
      #expect(kept.answers >= min(bound.answers, 3), "the newest are kept: \(kept)")
      let newest = try await sandbox.send(
        "POST", "/posts/add", json: post, headers: ["Idempotency-Key": "bulk-19"])
      #expect(newest.header("Idempotent-Replayed") == "true")
      #expect(sandbox.server.changesDone(path: "/posts/add") == 20)
      let oldest = try await sandbox.send(
        "POST", "/posts/add", json: post, headers: ["Idempotency-Key": "bulk-0"])
      #expect(oldest.status == 201 && oldest.header("Idempotent-Replayed") == nil)
      #expect(sandbox.server.changesDone(path: "/posts/add") == 21, "a forgotten key is done again")
    }
  }

  @Test func theSameKeyForAnotherRequestIs422() async throws {
    try await Sandbox.with { sandbox throws in
      let key = ["Idempotency-Key": "key-2"]
      _ = try await sandbox.send("POST", "/posts/add", json: Self.post, headers: key)
      var other = Self.post
      other["title"] = "Twice"
      let reused = try await sandbox.send("POST", "/posts/add", json: other, headers: key)
      #expect(reused.status == 422)
      #expect(reused.message == "This Idempotency-Key was used for a different request")
      #expect(sandbox.server.changesDone(path: "/posts/add") == 1)
      let empty = try await sandbox.send(
        "POST", "/posts/add", json: Self.post, headers: ["Idempotency-Key": ""])
      #expect(empty.status == 400)
    }
  }

  @Test func withoutAKeyEveryPostIsDone() async throws {
    try await Sandbox.with { sandbox throws in
      _ = try await sandbox.send("POST", "/posts/add", json: Self.post)
      _ = try await sandbox.send("POST", "/posts/add", json: Self.post)
      #expect(sandbox.server.changesDone(path: "/posts/add") == 2)
      let bad = try await sandbox.send(
        "POST", "/posts/add", json: ["title": "no user"], headers: ["Idempotency-Key": "k3"])
      #expect(bad.status == 400, "a refusal is kept too")
      let badAgain = try await sandbox.send(
        "POST", "/posts/add", json: ["title": "no user"], headers: ["Idempotency-Key": "k3"])
      #expect(badAgain.status == 400 && badAgain.header("Idempotent-Replayed") == "true")
    }
  }

  @Test func aLostAnswerWasStillCarriedOut() async throws {
    try await Sandbox.with { sandbox throws in
      sandbox.server.faults.add(
        .init(method: "POST", path: "/posts/add", count: 1, action: .dropAfterHandling))
      await #expect(throws: URLError.self) {
        try await sandbox.send(
          "POST", "/posts/add", json: Self.post, headers: ["Idempotency-Key": "k4"])
      }
      #expect(sandbox.server.changesDone(path: "/posts/add") == 1, "created, answer lost")
      let retried = try await sandbox.send(
        "POST", "/posts/add", json: Self.post, headers: ["Idempotency-Key": "k4"])
      #expect(retried.status == 201 && retried.header("Idempotent-Replayed") == "true")
      #expect(sandbox.server.changesDone(path: "/posts/add") == 1)
    }
  }

  @Test func theFaultSpecNamesIt() throws {
    let fault = try FaultInjector.Fault(spec: "POST /posts/add lose-answer")
    guard case .dropAfterHandling = fault.action else {
      Issue.record("expected lose-answer, got \(fault.action)")
      return
    }
  }
}

/// The ledger's byte count is exact: what a key holds while its request is handled is given
/// back when the answer replaces it, and when a 5xx leaves nothing kept.
@Suite("The idempotency ledger counts its bytes exactly")
struct IdempotencyLedgerTests {
  private static func post(key: String) -> SandboxRequest {
    SandboxRequest(
      method: "POST", path: "/posts/add", query: [], headers: [("Idempotency-Key", key)],
      body: Data(#"{"title":"t"}"#.utf8), receivedAt: Date())
  }

  @Test func aPlaceholdersBytesAreGivenBack() {
    let ledger = IdempotencyLedger()
    let failed = ledger.respond(Self.post(key: "fails")) { .message(503, "busy") }
    #expect(failed.status == 503)
    #expect(ledger.kept.answers == 0 && ledger.kept.bytes == 0, "\(ledger.kept)")
    let answer = SandboxResponse.message(201, "made")
    let size = answer.headers.reduce(answer.body.count) {
      $0 + $1.name.utf8.count + $1.value.utf8.count
    }
    _ = ledger.respond(Self.post(key: "works")) { answer }
    #expect(ledger.kept.answers == 1 && ledger.kept.bytes == "works".utf8.count + size)
  }
}
