import Foundation
import StrataConcurrency

/// `Idempotency-Key` on POST and PATCH, as the IETF httpapi draft describes it: the first
/// request with a key is done and its answer kept; a repeat with the same method, path and
/// body gets that answer again (marked `Idempotent-Replayed: true`) and nothing is done twice;
/// the same key with another request is refused (422), and one still in progress is a
/// conflict (409). Keeps the newest 10,000 keys. Every change actually done is counted.
final class IdempotencyLedger: Sendable {
  private enum Entry {
    case inProgress(fingerprint: [UInt8])
    case done(fingerprint: [UInt8], response: SandboxResponse)
  }

  private struct State {
    var entries: [String: Entry] = [:]
    var order: [String] = []
    var changesDone: [String: Int] = [:]
  }

  private let state = Lock(State())
  private let capacity: Int
  private let honoursKeys: Bool

  init(capacity: Int = 10_000, honoursKeys: Bool = true) {
    self.capacity = capacity
    self.honoursKeys = honoursKeys
  }

  /// How many POST/PATCH requests to `path` were really carried out (2xx), replays not counted.
  func changesDone(path: String) -> Int { state.withLock { $0.changesDone[path] ?? 0 } }

  /// Answers `request`, doing the work with `handle` at most once per key.
  func respond(_ request: SandboxRequest, _ handle: () -> SandboxResponse) -> SandboxResponse {
    guard request.method == "POST" || request.method == "PATCH" else { return handle() }
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
      state.entries[key] = .inProgress(fingerprint: fingerprint)
      state.order.append(key)
      if state.order.count > capacity {
        state.entries[state.order.removeFirst()] = nil
      }
      return nil
    }
    switch known {
    case .inProgress:
      return .message(409, "A request with this Idempotency-Key is still in progress")
    case .done(let first, var response):
      guard first == fingerprint else {
        return .message(422, "This Idempotency-Key was used for a different request")
      }
      response.headers.append(("Idempotent-Replayed", "true"))
      return response
    case nil:
      let response = counted(request, handle())
      state.withLock { state in
        if (500...599).contains(response.status) {
          state.entries[key] = nil  // not done: the client may try again with the same key
        } else {
          state.entries[key] = .done(fingerprint: fingerprint, response: response)
        }
      }
      return response
    }
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
