/// Which item a change is for: one the server numbered, or one made on this device and not yet
/// numbered (or numbered since: the device keeps its local id beside the server's).
public enum ItemID: Sendable, Hashable, CustomStringConvertible {
  case server(Int)
  /// Eight lowercase hex digits, at least one a letter, as
  /// ``OfflineCollection/newLocalId()`` draws them.
  case local(String)

  /// A server id (1 to 1,000,000,000) or a local id; nil for anything else.
  public init?(_ text: String) {
    if text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) {
      guard let id = Int(text), (1...1_000_000_000).contains(id) else { return nil }
      self = .server(id)
    } else if text.count == 8, text.allSatisfy({ $0.isHexDigit && !$0.isUppercase }),
      text.contains(where: \.isLetter)
    {
      self = .local(text)
    } else {
      return nil
    }
  }

  public var description: String {
    switch self {
    case .server(let id): String(id)
    case .local(let id): id
    }
  }

  /// The record key on the device: `<prefix>-<id>` for a server id, `local-<id>` for a local one.
  func key(_ prefix: String) -> String {
    switch self {
    case .server(let id): "\(prefix)-\(id)"
    case .local(let id): "local-\(id)"
    }
  }

  /// The server id in a record key `<prefix>-<id>`; nil for a local key (not numbered yet).
  static func server(in key: String?, _ prefix: String) -> Int? {
    guard let key, key.hasPrefix(prefix + "-") else { return nil }
    return Int(key.dropFirst(prefix.count + 1))
  }
}

/// A change offline to an item the device does not have: offline means no request at all.
public struct NotOnDevice: Error, Equatable, CustomStringConvertible {
  /// `post`, `todo`.
  public let kind: String
  public let id: ItemID

  public init(_ kind: String, _ id: ItemID) { (self.kind, self.id) = (kind, id) }

  public var description: String {
    let key = if case .server = id { "notOnDevice.server" } else { "notOnDevice.local" }
    return Localized.current(key, ["kind": kind, "id": id.description])
  }
}

/// A change addressed by a server id that several items on this device carry: a server that
/// answers every creation with one id (DummyJSON does) numbered them alike. Nothing was
/// changed; each is named by its local id.
public struct SharedServerID: Error, Equatable, CustomStringConvertible {
  /// `post`, `todo`.
  public let kind: String
  public let id: ItemID
  /// The local ids of the items that carry it.
  public let localIds: [String]

  public init(_ kind: String, _ id: ItemID, localIds: [String]) {
    (self.kind, self.id, self.localIds) = (kind, id, localIds)
  }

  public var description: String {
    Localized.current(
      "sharedServerID",
      [
        "kind": kind, "id": id.description, "count": String(localIds.count),
        "ids": localIds.joined(separator: ", "),
      ])
  }
}
