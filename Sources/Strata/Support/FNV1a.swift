/// The 64-bit FNV-1a hash of a text's UTF-8: short, stable names for files (a cache entry's,
/// an account's directory). Not a secret's digest, and not collision-proof: every name made
/// from it also carries, or is checked against, what it stands for.
enum FNV1a {
  static func hash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
  }
}
