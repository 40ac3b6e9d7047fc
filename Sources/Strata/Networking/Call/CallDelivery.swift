import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What one kind of call makes of its attempts beyond what every call does — judging the
/// status, retrying, renewing the token, keeping to the deadline, recording each attempt —
/// which the one attempt loop (``NetworkService/run(_:_:)``) does for all of them: a decoded
/// answer with the HTTP cache (``NetworkService/send(_:progress:)``) or a file
/// (``NetworkService/download(_:progress:)``).
protocol CallDelivery {
  associatedtype Value

  /// Readies the next attempt (a download asks for the rest of its part, or drops the part
  /// a restart said cannot be continued).
  mutating func prepare(_ call: inout NetworkService.Call, after restart: Restart?)

  /// An attempt's outcome before its status is judged.
  /// - Throws: what ends the call at once (a file that cannot be written, a `206` nothing
  ///   asked for).
  mutating func inspect(
    _ outcome: AttemptOutcome, _ call: inout NetworkService.Call, _ timing: AttemptTiming
  )
    async throws -> Inspection<Value>

  /// An answer standing in for a failed attempt (`next`): a kept one, still usable.
  mutating func standIn(for next: NetworkService.Next, call: NetworkService.Call) -> Value?

  /// Where the attempt's record says the answer came from, and the bytes that arrived when
  /// they did not come into memory (a file's).
  var recordSource: ResponseSource? { get }
  var bytesReceived: Int? { get }
  /// The lines, values or events a stream handed its reader (nil: not a stream).
  var elementsDelivered: Int? { get }

  /// The value of an attempt that is done.
  /// - Throws: `URLError` when fewer bytes came than announced: the loop retries it as a cut
  ///   connection.
  func deliver(_ data: Data, _ response: HTTPURLResponse, call: NetworkService.Call) async throws
    -> Value
}

extension CallDelivery {
  var elementsDelivered: Int? { nil }
}

/// What an attempt brought: an answer of any status, or why there was none.
typealias AttemptOutcome = Result<(Data, HTTPURLResponse), NetworkError>

/// When an attempt started, and why it was made (for its record).
struct AttemptTiming {
  let started: ContinuousClock.Instant
  let retriedBecause: String?
}

/// What a delivery makes of an outcome before its status is judged.
enum Inspection<Value> {
  /// Judged as every call's is.
  case judge
  /// The call's answer (a `304` that freshened the kept answer).
  case answer(Value)
  /// The kept copy cannot be used: start over, for this reason.
  case restart(Restart)
}
