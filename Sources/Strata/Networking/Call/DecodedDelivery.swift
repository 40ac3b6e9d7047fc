import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A call whose answer comes into memory and is decoded to `Response`, with the HTTP cache
/// when the service has one: a `304` freshens the kept answer, and a kept answer stands in
/// for a failure within its limits.
struct DecodedDelivery<Response: Decodable & Sendable>: CallDelivery {
  let service: NetworkService
  let cache: HTTPCache?
  /// The kept answer the request names in its validators; nil once it cannot be used.
  var stored: CachedResponse?
  /// When the call started, for the age of what it keeps.
  let requestTime: Date
  /// The age of the kept answer standing in for the last attempt, if one does.
  private var standingIn: Int?

  init(service: NetworkService, cache: HTTPCache?, stored: CachedResponse?, requestTime: Date) {
    (self.service, self.cache, self.stored, self.requestTime) = (
      service, cache, stored, requestTime
    )
  }

  func prepare(_ call: inout NetworkService.Call, after restart: Restart?) {}

  mutating func inspect(
    _ outcome: AttemptOutcome, _ call: inout NetworkService.Call, _ timing: AttemptTiming
  ) async throws -> Inspection<NetworkResponse<Response>> {
    guard let cache, stored != nil, case .success(let exchange) = outcome,
      exchange.1.statusCode == 304
    else { return .judge }
    let answer = try await service.notModified(
      &stored, exchange, Response.self, call: &call, retriedBecause: timing.retriedBecause,
      since: timing.started, requestTime: requestTime, in: cache)
    return answer.map { .answer($0) } ?? .restart(.keptAnswerUnusable)
  }

  mutating func standIn(for next: NetworkService.Next, call: NetworkService.Call)
    -> NetworkResponse<Response>?
  {
    let standIn = service.standIn(for: next, &stored, Response.self, call: call, in: cache)
    standingIn = standIn?.age
    guard let standIn else { return nil }
    service.logger.info(
      "\(call.label): answered from the cache (\(standIn.age)s old) after a failure")
    return NetworkResponse(standIn.value, source: .stale(age: standIn.age), status: standIn.status)
  }

  var recordSource: ResponseSource? {
    cache.map { _ in standingIn.map { .stale(age: $0) } ?? .network }
  }

  var bytesReceived: Int? { nil }

  func deliver(_ data: Data, _ response: HTTPURLResponse, call: NetworkService.Call) async throws
    -> NetworkResponse<Response>
  {
    try await service.answer(
      data, response, Response.self, call: call, at: requestTime, in: cache)
  }
}
