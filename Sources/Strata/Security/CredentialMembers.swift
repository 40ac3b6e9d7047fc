import Foundation

/// The members of a JSON answer named as credentials: `password`, `secret`, `token`,
/// `accessToken`, `refresh_token`, `apiKey`, … (any name holding one of
/// ``Redactor/secretWords``, compared without case, `_`, `-`, `.` or spaces) — what DummyJSON
/// puts in `/auth/me`, `/users/1` and `/users`. ``HTTPCache`` keeps such an answer with those
/// members removed, at any depth, whatever their values: the caller gets the answer whole,
/// and no file (nor a later read from the cache) ever holds the credential.
enum CredentialMembers {
  /// `body` without its credential members; `body` itself when it has none; nil when it seems
  /// to have some but is no JSON to remove them from (then it is not kept at all).
  static func removed(from body: Data) -> Data? {
    guard occur(in: body) else { return body }
    guard let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
    else { return nil }
    return try? JSONSerialization.data(
      withJSONObject: removed(from: json), options: [.fragmentsAllowed, .sortedKeys])
  }

  private static func removed(from json: Any) -> Any {
    if let object = json as? [String: Any] {
      return object.reduce(into: [String: Any]()) { kept, member in
        if !isCredential(Array(member.key.utf8)) { kept[member.key] = removed(from: member.value) }
      }
    }
    if let array = json as? [Any] { return array.map { removed(from: $0) } }
    return json
  }

  /// Whether any member name in `body` is a credential's: one pass over the bytes, without
  /// parsing (every string followed by `:` is a member name).
  static func occur(in body: Data) -> Bool {
    body.withUnsafeBytes { bytes in
      let count = bytes.count
      // One buffer for every string's first 64 bytes: this runs on every answer kept.
      var name: [UInt8] = []
      name.reserveCapacity(64)
      var index = 0
      while index < count {
        guard bytes[index] == UInt8(ascii: "\"") else {
          index += 1
          continue
        }
        // A string: its bytes up to the closing quote (an escaped quote does not close it).
        name.removeAll(keepingCapacity: true)
        var end = index + 1
        while end < count, bytes[end] != UInt8(ascii: "\"") {
          if bytes[end] == UInt8(ascii: "\\") {
            end += 1
          } else if name.count < 64 {
            name.append(bytes[end])
          }
          end += 1
        }
        var next = end + 1
        while next < count, isWhitespace(bytes[next]) { next += 1 }
        if next < count, bytes[next] == UInt8(ascii: ":"), isCredential(name) { return true }
        index = end + 1
      }
      return false
    }
  }

  /// JSON's whitespace: space, tab, LF, CR.
  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  static func isCredential(_ name: [UInt8]) -> Bool {
    let normalised = String(
      decoding: name.compactMap { byte -> UInt8? in
        switch byte {
        case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), 0x20: nil
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte | 0x20
        default: byte
        }
      }, as: UTF8.self)
    return Redactor.secretWords.contains { normalised.contains($0) }
  }
}
