import Foundation

/// Strong entity tags and `If-Match` (RFC 9110 §8.8.3, §13.1.1) for the records a sandbox
/// keeps writes of (`keepsWrites`): a single post or todo carries the tag of its JSON, and a
/// write naming another tag is refused with 412 — what lets a client tell that someone else
/// changed the record since it read it. Off when writes are not kept: DummyJSON sends neither.
enum EntityTags {
  /// The strong tag of a record's JSON: a quoted 64-bit FNV-1a hash of its bytes.
  static func tag(of record: Data) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in record {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return "\"" + String(hash, radix: 16) + "\""
  }

  /// `response` with the tag of `record` (the representation it carries, whole).
  static func tagged(_ response: SandboxResponse, _ record: Data) -> SandboxResponse {
    var response = response
    response.headers.append(("ETag", tag(of: record)))
    return response
  }

  /// Refuses a write whose `If-Match` no tag of `current` meets: `*` matches any current
  /// record; a weak tag (`W/"…"`) never matches, since the comparison is strong. No header:
  /// no condition.
  static func check(_ request: SandboxRequest, current: Data) throws(Rejection) {
    guard let field = request.header("If-Match") else { return }
    let wanted = field.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    let now = tag(of: current)
    guard wanted.contains(where: { $0 == "*" || $0 == now }) else {
      throw Rejection(412, "Precondition Failed: the record changed since it was read")
    }
  }
}
