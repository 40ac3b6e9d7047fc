import Foundation
import StrataConcurrency

/// `Idempotency-Key` on every method that changes something (POST, PUT, PATCH, DELETE), as
/// the IETF httpapi draft describes it: the first
/// request with a key is done and its answer kept; a repeat with the same method, path and
/// body gets that answer again (marked `Idempotent-Replayed: true`) and nothing is done twice;
/// the same key with another request is refused (422), and one still in progress is a
/// conflict (409). Every change actually done is counted.
///
/// The kept answers are bounded by count and by bytes (``SandboxLimits/maxIdempotentAnswers``,
/// ``SandboxLimits/maxIdempotentBytes``): the oldest key goes first, and a repeat of a key
/// that went is done again. Without the byte bound, 1,000 keyed posts near the body limit
/// grew the process by half a gigabyte.
final class IdempotencyLedger: Sendable {
  private struct Entry {
    let fingerprint: [UInt8]
    /// nil while the first request is being handled.
    var response: SandboxResponse?
    /// Which insertion this is: an `order` slot naming an older insertion of a key that was
    /// dropped and used again does not evict the newer one.
    var serial = 0
    var bytes: Int
  }

  private struct State {
    var entries: [String: Entry] = [:]
    /// Keys oldest first, with their serial; `head` slots are already gone.
    var order: [(key: String, serial: Int)] = []
    var head = 0
    var serial = 0
    var bytes = 0
    var changesDone: [String: Int] = [:]
  }

  private let state = Lock(State())
  private let maxAnswers: Int
  private let maxBytes: Int
  private let honoursKeys: Bool

  init(maxAnswers: Int = 10_000, maxBytes: Int = 16 << 20, honoursKeys: Bool = true) {
    self.maxAnswers = max(1, maxAnswers)
    self.maxBytes = max(0, maxBytes)
    self.honoursKeys = honoursKeys
  }

  /// How many changing requests to `path` were really carried out (2xx), replays not counted.
  func changesDone(path: String) -> Int { state.withLock { $0.changesDone[path] ?? 0 } }

  /// How many answers and bytes are kept.
  var kept: (answers: Int, bytes: Int) { state.withLock { ($0.entries.count, $0.bytes) } }

  /// The methods whose keyed requests are done once: a resent DELETE is answered as the first
  /// was, not 404.
  private static let changing: Set<String> = ["POST", "PUT", "PATCH", "DELETE"]

  /// Answers `request`, doing the work with `handle` at most once per key.
  func respond(_ request: SandboxRequest, _ handle: () -> SandboxResponse) -> SandboxResponse {
    guard Self.changing.contains(request.method) else { return handle() }
    guard honoursKeys, let key = request.header("Idempotency-Key") else {
      return counted(request, handle())
    }
    guard !key.isEmpty, key.utf8.count <= 255 else {
      return .message(400, "Idempotency-Key must be 1 to 255 characters")
    }
    let fingerprint = SHA256.hash(
      Array("\(request.method) \(request.path)\n".utf8) + Self.canonical(request.body))
    let known = state.withLock { state -> Entry? in
      if let entry = state.entries[key] { return entry }
      insert(Entry(fingerprint: fingerprint, bytes: key.utf8.count), for: key, &state)
      return nil
    }
    guard let known else {
      let response = counted(request, handle())
      state.withLock { state in
        guard let entry = state.entries[key], entry.response == nil else { return }
        state.bytes -= entry.bytes
        state.entries[key] = nil
        // A 5xx is not done: the client may try again with the same key. Nor is a 412: the
        // write was refused by its precondition (If-Match), and the same change sent again on
        // the version it now read is a request to do it, not a repeat of a done one.
        if !(500...599).contains(response.status), response.status != 412 {
          let bytes = key.utf8.count + Self.size(of: response)
          var done = Entry(fingerprint: fingerprint, bytes: bytes)
          done.response = response
          insert(done, for: key, &state)
        }
      }
      return response
    }
    guard var response = known.response else {
      return .message(409, "A request with this Idempotency-Key is still in progress")
    }
    guard known.fingerprint == fingerprint else {
      return .message(422, "This Idempotency-Key was used for a different request")
    }
    response.headers.append(("Idempotent-Replayed", "true"))
    return response
  }

  /// Adds `entry` as the newest and evicts the oldest until both bounds hold again (an answer
  /// larger than the whole byte budget is not kept at all).
  private func insert(_ entry: Entry, for key: String, _ state: inout State) {
    var entry = entry
    state.serial += 1
    entry.serial = state.serial
    state.entries[key] = entry
    state.bytes += entry.bytes
    state.order.append((key, state.serial))
    while state.entries.count > maxAnswers || state.bytes > maxBytes,
      state.head < state.order.count
    {
      let oldest = state.order[state.head]
      state.head += 1
      if let gone = state.entries[oldest.key], gone.serial == oldest.serial {
        state.entries[oldest.key] = nil
        state.bytes -= gone.bytes
      }
    }
    // Slots of answers already gone (evicted, replaced, a 5xx) are dropped once they
    // outnumber the live ones, so `order` stays within twice the kept answers.
    if state.order.count - state.head > 2 * state.entries.count + 1_024 {
      let live = state.entries
      state.order = state.order[state.head...].filter { live[$0.key]?.serial == $0.serial }
      state.head = 0
    } else if state.head > 1_024, state.head * 2 > state.order.count {
      state.order.removeFirst(state.head)
      state.head = 0
    }
  }

  private static func size(of response: SandboxResponse) -> Int {
    response.headers.reduce(response.body.count) { $0 + $1.name.utf8.count + $1.value.utf8.count }
  }

  /// A JSON body with its keys sorted (the same change written in another key order is the
  /// same request); any other body as it is.
  private static func canonical(_ body: Data) -> [UInt8] {
    guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
      let sorted = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
    else { return Array(body) }
    return Array(sorted)
  }

  private func counted(_ request: SandboxRequest, _ response: SandboxResponse) -> SandboxResponse {
    if (200..<300).contains(response.status) {
      state.withLock { $0.changesDone[request.path, default: 0] += 1 }
    }
    return response
  }
}
