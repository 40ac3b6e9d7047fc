import Foundation
import StrataConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Identical reads in flight at one moment, sharing one exchange: the first caller's goes
/// out, the others wait for its outcome, and each then judges, records and decodes it on its
/// own. A caller that is cancelled leaves at once; the exchange is cancelled only when no
/// caller is left, and the flight is gone then: its exchange's end (it may still be winding
/// down) reaches no one, never a later flight under the same key.
final class InFlightReads: Sendable {
  typealias Outcome = Result<(Data, HTTPURLResponse), NetworkError>

  private struct Flight {
    /// Which flight this is: a later one under the same key has another.
    let number: Int
    var waiters: [Int: CheckedContinuation<Outcome, Never>] = [:]
    var task: Task<Void, Never>?
  }

  private struct State {
    var flights: [String: Flight] = [:]
    /// Numbers for waiters and flights alike.
    var next = 0
    /// Waiters cancelled before they were registered: they leave as they arrive.
    var cancelled: Set<Int> = []

    mutating func number() -> Int {
      next += 1
      return next
    }
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
    return "\(call.owner.account ?? "")\n\(url.absoluteString)\n\(headers)"
  }

  /// How many callers wait on the exchange for `key` (tests wait for them to gather).
  func waiters(for key: String) -> Int { state.withLock { $0.flights[key]?.waiters.count ?? 0 } }

  /// How a caller joined: cancelled before it could, waiting on a flight in the air, or
  /// starting flight `number`.
  private enum Joined {
    case cancelled, waiting
    case starting(Int)
  }

  /// The outcome of the exchange for `key`: one already in flight, or `exchange` started now.
  func share(_ key: String, _ exchange: @escaping @Sendable () async -> Outcome) async -> Outcome {
    let id = state.withLock { $0.number() }
    let outcome = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let joined = state.withLock { state -> Joined in
          guard state.cancelled.remove(id) == nil else { return .cancelled }
          if state.flights[key] != nil {
            state.flights[key]?.waiters[id] = continuation
            return .waiting
          }
          let number = state.number()
          state.flights[key] = Flight(number: number, waiters: [id: continuation])
          return .starting(number)
        }
        switch joined {
        case .cancelled: continuation.resume(returning: .failure(.transport(URLError(.cancelled))))
        case .waiting: break
        case .starting(let number): start(key, number, exchange)
        }
      }
    } onCancel: {
      leave(key, id)
    }
    // A cancellation that came after the outcome left its mark for nothing: no leak.
    state.withLock { _ = $0.cancelled.remove(id) }
    return outcome
  }

  /// Runs flight `number`'s exchange; cancels it at once when every waiter left before it
  /// was handed its task.
  private func start(
    _ key: String, _ number: Int, _ exchange: @escaping @Sendable () async -> Outcome
  ) {
    let task = Task { [self] in land(key, number, await exchange()) }
    let abandoned = state.withLock { state -> Bool in
      guard state.flights[key]?.number == number else { return true }
      state.flights[key]?.task = task
      return false
    }
    if abandoned { task.cancel() }
  }

  /// Flight `number`'s outcome, to its own waiters only: when it was abandoned, a flight under
  /// the same key since is another's and goes on.
  private func land(_ key: String, _ number: Int, _ outcome: Outcome) {
    let waiters = state.withLock { state -> [Int: CheckedContinuation<Outcome, Never>] in
      guard state.flights[key]?.number == number else { return [:] }
      return state.flights.removeValue(forKey: key)?.waiters ?? [:]
    }
    for waiter in waiters.values { waiter.resume(returning: outcome) }
  }

  private func leave(_ key: String, _ id: Int) {
    let (waiter, abandoned) = state.withLock {
      state -> (CheckedContinuation<Outcome, Never>?, Task<Void, Never>?) in
      guard let waiter = state.flights[key]?.waiters.removeValue(forKey: id) else {
        state.cancelled.insert(id)  // not registered yet: it leaves as it arrives
        return (nil, nil)
      }
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
