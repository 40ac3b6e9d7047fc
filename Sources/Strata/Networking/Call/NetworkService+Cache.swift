import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The HTTP cache's part of a call: what a kept answer can answer without a request, what a
/// `304` does to it (RFC 9111 §4.3.4), what stands in for a failure, and what is kept — only
/// an answer that decoded, so nothing the app cannot read is ever served again.
extension NetworkService {
  /// A fresh kept answer, or one within its `stale-while-revalidate` window (revalidated
  /// behind it); nil when the server must be asked. A kept answer that no longer decodes is
  /// dropped, and `stored` with it.
  func cached<Response>(
    _ stored: inout CachedResponse?, _ endpoint: Request<Response>, _ policy: CachePolicy,
    label: String, call: Call, in cache: HTTPCache
  ) -> NetworkResponse<Response>? {
    guard let hit = stored else { return nil }
    let now = cache.currentDate
    let age = Int(hit.age(at: now))
    let fresh = hit.isFresh(at: now, heuristic: policy.heuristicLifetime)
    guard fresh || hit.canServeWhileRevalidating(at: now) else { return nil }
    guard let value = keptValue(Response.self, hit, for: call, in: cache) else {
      stored = nil
      return nil
    }
    let source: ResponseSource = fresh ? .cache(age: age) : .stale(age: age)
    recordHit(hit, source: source, of: call)
    if !fresh, let url = call.request.url {
      // RFC 5861: the stored answer now, a revalidation behind it for the next read.
      revalidateInBackground(
        endpoint, label: label, key: HTTPCache.key(url, owner: call.owner), in: cache)
    }
    return NetworkResponse(value, source: source, status: hit.status, etag: hit.etag)
  }

  /// The kept answer, refreshed by a `304` to a conditional request (recorded as
  /// revalidated); nil when the 304 names another representation than the one kept, or the
  /// kept one no longer decodes — it is then dropped, and `call` made unconditional to ask
  /// again.
  func notModified<Response: Decodable & Sendable>(
    _ stored: inout CachedResponse?, _ exchange: (Data, HTTPURLResponse), _ type: Response.Type,
    call: inout Call,
    retriedBecause why: String?, since started: ContinuousClock.Instant, requestTime: Date,
    in cache: HTTPCache
  ) async throws -> NetworkResponse<Response>? {
    try await checkSession(of: call)
    // A kept answer the type cannot read (one kept without a credential member the type
    // requires) is dropped too, and asked for whole.
    guard let kept = stored,
      let answer = revalidated(kept, by: exchange.1, call: call, at: requestTime, in: cache),
      let value = keptValue(type, answer, for: call, in: cache)
    else {
      stored = nil
      call.makeConditional(on: nil)
      return nil
    }
    record(
      .success(exchange), .done(answer.body, exchange.1), of: call,
      retriedBecause: why, duration: ContinuousClock.now - started, source: .revalidated)
    return NetworkResponse(value, source: .revalidated, status: answer.status, etag: answer.etag)
  }

  /// What stands in for a failed attempt (`next`): the kept answer, within its limits. A
  /// conditional request refused for good (a 431 for an oversized validator, a 404) drops it
  /// instead, so it is not offered again.
  func standIn<Response: Decodable & Sendable>(
    for next: Next, _ stored: inout CachedResponse?, _ type: Response.Type, call: Call,
    in cache: HTTPCache?
  ) -> (value: Response, age: Int, status: Int)? {
    guard let cache else { return nil }
    if stored != nil, case .fail(let error) = next, let status = error.status,
      (400..<500).contains(status), ![401, 407, 408, 429].contains(status)
    {
      cache.store(nil, for: call.request, owner: call.owner, epoch: nil)
      stored = nil
    }
    return stored.flatMap { standsIn($0, type, for: next, call: call, in: cache) }
  }

  /// What a `304` makes of the kept answer: freshened with its headers and kept — or, when it
  /// says `no-store`, used this once and dropped. Nil when the 304's validator names another
  /// representation than the kept one (dropped: the caller asks again without validators).
  func revalidated(
    _ stored: CachedResponse, by response: HTTPURLResponse, call: Call, at requestTime: Date,
    in cache: HTTPCache
  ) -> CachedResponse? {
    guard stored.isSelected(by: response) else {
      logger.info("\(call.label): a 304 for another representation; asking again")
      cache.store(nil, for: call.request, owner: call.owner, epoch: nil)
      return nil
    }
    var entry = stored
    entry.refresh(with: response, requestTime: requestTime, responseTime: cache.currentDate)
    cache.store(
      entry.control.noStore ? nil : entry, for: call.request, owner: call.owner,
      epoch: call.epoch)
    return entry
  }

  /// A kept answer that may stand in for a call that failed for good because the server
  /// could not be reached or failed (5xx), decoded, with its age in seconds.
  func standsIn<Response: Decodable & Sendable>(
    _ stored: CachedResponse, _ type: Response.Type, for next: Next, call: Call,
    in cache: HTTPCache
  ) -> (value: Response, age: Int, status: Int)? {
    guard case .fail(let error) = next else { return nil }
    switch error.kind {
    case .transport, .offline, .deadlineExceeded, .invalidResponse: break
    case .server(let status, _) where status >= 500: break
    default: return nil
    }
    let now = cache.currentDate
    guard stored.canStandIn(at: now, maxStale: cache.maxStale.inSeconds),
      let value = keptValue(type, stored, for: call, in: cache)
    else { return nil }
    return (value, Int(stored.age(at: now)), stored.status)
  }

  /// A success's value. A GET's answer is kept only once it decoded (a captive portal's page
  /// or a body cut short is never served from the cache); a change (POST, PUT, PATCH,
  /// DELETE) drops what was kept for its URL whatever its answer says.
  func answer<Response: Decodable & Sendable>(
    _ data: Data, _ response: HTTPURLResponse, _ type: Response.Type, call: Call,
    at requestTime: Date, in cache: HTTPCache?
  ) async throws -> NetworkResponse<Response> {
    guard call.method == .get else {
      keep(data, response, for: call, requestTime: requestTime, in: cache)
      let value = try decode(
        type, data, status: response.statusCode,
        contentType: response.value(forHTTPHeaderField: "Content-Type"))
      return NetworkResponse(
        value, status: response.statusCode, etag: response.value(forHTTPHeaderField: "ETag"))
    }
    try await checkSession(of: call)
    let value = try decode(
      type, data, status: response.statusCode,
      contentType: response.value(forHTTPHeaderField: "Content-Type"))
    // Kept with its value — a hit, or a 304 that says the body is the same, decodes nothing —
    // unless what is kept is not what was decoded (credential members removed from it).
    if let kept = keep(data, response, for: call, requestTime: requestTime, in: cache),
      kept.body == data
    {
      kept.decoded.keep(value, decoder: decodingIdentity)
    }
    return NetworkResponse(
      value, status: response.statusCode, etag: response.value(forHTTPHeaderField: "ETag"))
  }

  /// A kept answer's value, or nil after dropping an answer that no longer decodes.
  private func keptValue<Response: Decodable & Sendable>(
    _ type: Response.Type, _ stored: CachedResponse, for call: Call, in cache: HTTPCache
  ) -> Response? {
    do {
      return try decode(type, stored)
    } catch {
      logger.info("\(call.label): a kept answer no longer decodes; dropped (\(error))")
      cache.store(nil, for: call.request, owner: call.owner, epoch: nil)
      return nil
    }
  }

  /// Revalidates the answer stored under `key` in the background, one revalidation at a time
  /// per answer; the caller has the stale answer already, so a failure is only logged.
  private func revalidateInBackground<Response>(
    _ endpoint: Request<Response>, label: String, key: String, in cache: HTTPCache
  ) {
    guard cache.beginRevalidation(key) else { return }
    Task.detached { [self] in
      defer { cache.endRevalidation(key) }
      do {
        _ = try await send(endpoint, label: label, policy: .revalidate)
      } catch {
        logger.debug("\(label): the background revalidation failed: \(error)")
      }
    }
  }

  /// After a success: a GET's answer is kept when it may be; a change (POST, PUT, PATCH,
  /// DELETE) drops what was kept for its URL and for the `Location` / `Content-Location` it
  /// names on the same origin (RFC 9111 §4.4) — with or without a cache for this call, since
  /// the shared cache may hold a public answer for that URL.
  /// - Returns: The answer as kept, for a GET kept in a cache.
  @discardableResult
  private func keep(
    _ data: Data, _ response: HTTPURLResponse, for call: Call, requestTime: Date,
    in cache: HTTPCache?
  ) -> CachedResponse? {
    let request = call.request
    let method = request.httpMethod ?? "GET"
    if method == "GET" {
      guard let cache else { return nil }
      let entry = CachedResponse(
        data, response, variedValue: { cache.variedValue($0, of: request) },
        requestTime: requestTime, responseTime: cache.currentDate,
        usableWithoutLifetime: call.heuristicLifetime != nil)
      cache.store(entry, for: request, owner: call.owner, epoch: call.epoch)
      return entry
    }
    guard method != "HEAD", method != "OPTIONS", let shared = options.cache,
      let url = request.url
    else { return nil }
    shared.invalidate(url, owner: call.owner)
    for header in ["Location", "Content-Location"] {
      guard let value = response.value(forHTTPHeaderField: header),
        let target = URL(string: value, relativeTo: url)?.absoluteURL,
        let origin = Origin(url), origin.contains(target)
      else { continue }
      shared.invalidate(target, owner: call.owner)
    }
    return nil
  }

  /// The record of an answer the cache gave without a request (attempt 0).
  private func recordHit(_ stored: CachedResponse, source: ResponseSource, of call: Call) {
    guard logger.isEnabled(.debug) || options.observer != nil else { return }
    var record = RequestRecord(
      request: call.label, method: "GET",
      url: call.request.url.map(redactor.redact(url:)) ?? "?", status: stored.status,
      durationMilliseconds: 0, bytesSent: 0, bytesReceived: 0, attempt: 0)
    record.source = source
    if let observer = options.observer {
      // What the cache answered with, as an exchange: the kept head and the body's first bytes.
      var exchange = HTTPExchange(started: Date(), request: call.request)
      exchange.response = call.request.url.flatMap {
        HTTPURLResponse(
          url: $0, statusCode: stored.status, httpVersion: "HTTP/1.1", headerFields: stored.headers)
      }
      exchange.responseBody = stored.body.prefix(observer.bodyLimit)
      exchange.responseBodySize = stored.body.count
      record.exchange = exchange
      observer.observe(record)
    }
    logger.log(.debug, "← \(stored.status) \(call.label) from the cache", fields: record.fields)
  }

  /// Ends a read whose session ended while its answer was on the way (signed out, here or in
  /// another process, or another account signed in): its answer is neither kept nor returned
  /// as that account's.
  func checkSession(of call: Call) async throws {
    try await checkSession(call.session, epoch: call.epoch, label: call.label)
  }

  /// Throws ``NetworkError/Unauthorized/sessionEnded`` when the session `mark` was given in
  /// (its account's answers marked `epoch` in the cache) is no longer the one signed in: one
  /// question to the mark, and the authenticator asked again only when the mark cannot say.
  func checkSession(_ mark: SessionMark?, epoch: String?, label: String) async throws {
    guard let mark, let account = mark.owner.account else { return }
    var current: Bool
    if let answer = mark.isCurrent() {
      current = answer
    } else {
      current = (try? await authenticator?.session().owner) == mark.owner
    }
    if let epoch, epoch != options.cache?.epoch(for: account) { current = false }
    guard !current else { return }
    logger.info("\(label): the session ended while the answer was on its way; dropped")
    throw NetworkError.unauthorized(.sessionEnded)
  }

}
