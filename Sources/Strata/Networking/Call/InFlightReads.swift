import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Identical reads in flight at one moment, sharing one exchange: the first caller's goes
/// out, the others wait for its outcome, and each then judges, records and decodes it on its
/// own. A caller that is cancelled leaves at once; the exchange is cancelled only when no
/// caller is left.
final class InFlightReads: Sendable {
  typealias Outcome = Result<(Data, HTTPURLResponse), NetworkError>

  private struct Flight {
    var waiters: [Int: CheckedContinuation<Outcome, Never>] = [:]
    var task: Task<Void, Never>?
  }

  private struct State {
    var flights: [String: Flight] = [:]
    var nextWaiter = 0
  }

  private let state = Lock(State())

  /// The key of a call that may share: a GET with no body, read into memory, whose request
  /// allows it — its URL, every header (the token among them, so two sessions, or signed
  /// in and out, never share) and the account it is made for.
  static func key(of call: NetworkService.Call) -> String? {
    guard call.coalesces, call.method == .get, call.sink == nil, call.streamed == nil,
      call.progress == nil, call.request.httpBody == nil, let url = call.request.url
    else { return nil }
    let headers = (call.request.allHTTPHeaderFields ?? [:])
      .map { "\($0.key.lowercased()): \($0.value)" }.sorted().joined(separator: "\n")
    return "\(call.account ?? "")\n\(url.absoluteString)\n\(headers)"
  }

  /// How many callers wait on the exchange for `key` (tests wait for them to gather).
  func waiters(for key: String) -> Int { state.withLock { $0.flights[key]?.waiters.count ?? 0 } }

  /// The outcome of the exchange for `key`: one already in flight, or `exchange` started now.
  func share(_ key: String, _ exchange: @escaping @Sendable () async -> Outcome) async -> Outcome {
    let id = state.withLock { state -> Int in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        guard !Task.isCancelled else {
          return continuation.resume(returning: .failure(.transport(URLError(.cancelled))))
        }
        let starts = state.withLock { state -> Bool in
          let starts = state.flights[key] == nil
          state.flights[key, default: Flight()].waiters[id] = continuation
          return starts
        }
        guard starts else { return }
        let task = Task { [self] in land(key, await exchange()) }
        state.withLock { $0.flights[key]?.task = task }
      }
    } onCancel: {
      leave(key, id)
    }
  }

  private func land(_ key: String, _ outcome: Outcome) {
    let waiters = state.withLock { $0.flights.removeValue(forKey: key)?.waiters ?? [:] }
    for waiter in waiters.values { waiter.resume(returning: outcome) }
  }

  private func leave(_ key: String, _ id: Int) {
    let (waiter, abandoned) = state.withLock {
      state -> (CheckedContinuation<Outcome, Never>?, Task<Void, Never>?) in
      let waiter = state.flights[key]?.waiters.removeValue(forKey: id)
      guard let flight = state.flights[key], flight.waiters.isEmpty else { return (waiter, nil) }
      state.flights[key] = nil
      return (waiter, flight.task)
    }
    waiter?.resume(returning: .failure(.transport(URLError(.cancelled))))
    abandoned?.cancel()
  }
}

extension NetworkService {
  /// One attempt's exchange: shared with an identical read in flight when the call allows
  /// (``InFlightReads/key(of:)``), else its own.
  func exchange(_ call: Call, within remaining: Duration) async -> InFlightReads.Outcome {
    guard let key = InFlightReads.key(of: call) else {
      return await exchangeAlone(call, within: remaining)
    }
    return await inFlight.share(key) { [self] in await exchangeAlone(call, within: remaining) }
  }
}
