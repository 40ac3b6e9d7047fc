import Strata

/// Which post or todo a command means: one the server numbered (DummyJSON numbers them), or one
/// made on this device, by its local id.
public typealias ItemID = ItemReference<Int>

extension ItemReference where ID == Int {
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
