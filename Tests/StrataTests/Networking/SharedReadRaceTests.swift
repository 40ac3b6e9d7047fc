import Foundation
import StrataConcurrency
import StrataTesting
import Testing

@testable import Strata

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A flight's end completes only its own waiters: a caller that cancels an identical read as
/// another starts it never ends the other's read, however the two interleave; an abandoned
/// flight's exchange is cancelled; the account is part of the key, and only GETs share.
@Suite("Shared reads: one flight's end is its own")
struct SharedReadRaceTests {
  /// An exchange held until `release(with:)`, that ignores cancellation meanwhile (as a
  /// request winding down does), and says whether it was cancelled.
  private final class HeldExchange: Sendable {
    private let outcome = Lock<InFlightReads.Outcome?>(nil)
    let started = Lock(false)
    let cancelled = Lock(false)

    func release(with result: InFlightReads.Outcome) { outcome.withLock { $0 = result } }

    func run() async -> InFlightReads.Outcome {
      started.withLock { $0 = true }
      while true {
        if let result = outcome.withLock({ $0 }) { return result }
        if Task.isCancelled { cancelled.withLock { $0 = true } }
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(1))
      }
    }
  }

  private static func answer(_ text: String) throws -> InFlightReads.Outcome {
    let url = try #require(URL(string: "https://api.example/users/1"))
    let response = try #require(
      HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil))
    return .success((Data(text.utf8), response))
  }

  /// A cancels, its flight is abandoned while its exchange still runs; B starts the same read:
  /// the abandoned exchange's end (here a cancellation) reaches no one, and B gets its own.
  @Test(.timeLimit(.minutes(1)))
  func anAbandonedFlightsEndNeverReachesTheNextOne() async throws {
    for round in 0..<200 {
      let reads = InFlightReads()
      let (first, second) = (HeldExchange(), HeldExchange())
      let a = Task { await reads.share("k") { await first.run() } }
      try await waitUntil("A's exchange started") { first.started.withLock { $0 } }
      a.cancel()
      guard case .failure = await a.value else {
        Issue.record("round \(round): A was not cancelled")
        return
      }
      try await waitUntil("A's exchange told") { first.cancelled.withLock { $0 } }
      let b = Task { await reads.share("k") { await second.run() } }
      try await waitUntil("B's exchange started") { second.started.withLock { $0 } }
      first.release(with: .failure(.transport(URLError(.cancelled))))
      await Task.yield()
      second.release(with: try Self.answer("b"))
      guard case .success(let (data, _)) = await b.value, data == Data("b".utf8) else {
        Issue.record("round \(round): B got A's end")
        return
      }
    }
  }

  /// A caller cancelled before it joined leaves at once and starts nothing; one cancelled
  /// while another waits leaves the other its answer.
  @Test(.timeLimit(.minutes(1)))
  func aCallerCancelledEarlyStartsNothing() async throws {
    let reads = InFlightReads()
    let exchange = HeldExchange()
    let early = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await reads.share("k") { await exchange.run() }
    }
    guard case .failure = await early.value else {
      Issue.record("a cancelled caller was not told")
      return
    }
    #expect(!exchange.started.withLock { $0 }, "nothing went out")
    #expect(reads.waiters(for: "k") == 0)
  }

  @Test func theAccountIsPartOfTheKeyAndOnlyGETsShare() throws {
    let url = try #require(URL(string: "https://api.example/users/1"))
    func call(_ method: HTTPMethod, account: String?) -> NetworkService.Call {
      var request = URLRequest(url: url)
      request.httpMethod = method.rawValue
      var call = NetworkService.Call(
        label: "GET users/1", method: method, deadline: .seconds(60), policy: .none,
        maxResponseSize: 1 << 20, request: request)
      call.session = account.map { SessionMark(token: "tok", owner: .account($0)) }
      call.coalesces = true
      return call
    }
    let alice = InFlightReads.key(of: call(.get, account: "alice"))
    let bob = InFlightReads.key(of: call(.get, account: "bob"))
    #expect(alice != nil && bob != nil && alice != bob)
    #expect(InFlightReads.key(of: call(.get, account: nil)) != alice)
    for method in [HTTPMethod.post, .put, .patch, .delete] {
      #expect(InFlightReads.key(of: call(method, account: "alice")) == nil, "\(method)")
    }
  }
}
