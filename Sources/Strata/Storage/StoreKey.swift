import Foundation

/// A record's key as the store holds it in memory. Most keys of a long queue are the
/// identities of changes made on the device (`DDE00C4E-7D40-…`, 36 characters): as text each
/// would cost a heap allocation of 80 bytes; as the 16 bytes they stand for, none. A key is
/// `.uuid` exactly when it is a UUID's own uppercase text, so one string has one form and
/// the two never compare equal by accident; every other key (`post-151`) is kept as given.
enum StoreKey: Hashable, Sendable {
  case uuid(UUID)
  case text(String)

  init(_ key: String) {
    if let id = UUIDText.parse(key.utf8, uppercaseOnly: true) {
      self = .uuid(id)
    } else {
      self = .text(key)
    }
  }

  /// Whether this key's text sorts before `other`'s, byte by byte (UTF-8): an order for ties,
  /// cheaper than comparing strings, and spelling no UUID out.
  func precedes(_ other: StoreKey) -> Bool {
    switch (self, other) {
    case (.uuid(let a), .uuid(let b)):
      withUnsafeBytes(of: a.uuid) { a in
        withUnsafeBytes(of: b.uuid) { b in a.lexicographicallyPrecedes(b) }
      }
    case (.text(let a), .text(let b)): a.utf8.lexicographicallyPrecedes(b.utf8)
    default: string.utf8.lexicographicallyPrecedes(other.string.utf8)
    }
  }

  /// The key as the store's files and its API spell it.
  var string: String {
    switch self {
    case .uuid(let id): UUIDText.string(id)
    case .text(let text): text
    }
  }
}

/// In the store's files a key is the string it spells.
extension StoreKey: Codable {
  init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode(String.self))
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(string)
  }
}
