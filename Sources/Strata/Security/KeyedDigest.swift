import StrataConcurrency

/// `hmac-sha256:<hex>`: what the library keeps in a file instead of a value that must not be
/// there — a credential header a `Vary` names, a download's URL — so that a later value can be
/// compared with it without the file ever holding the value.
enum KeyedDigest {
  static func of(_ value: String, key: [UInt8]) -> String {
    "hmac-sha256:" + hex(SHA256.hmac(key: key, message: Array(value.utf8)))
  }

  /// Lower-case hex digits, two per byte.
  static func hex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
    return String(decoding: text, as: UTF8.self)
  }
}
