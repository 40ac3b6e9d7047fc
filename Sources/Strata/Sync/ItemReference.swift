/// Which item a call means: one the server numbered, by the server's id, or one made on this
/// device, by the local id the device gave it (its key for life, numbered by the server or not).
public enum ItemReference<ID: LosslessStringConvertible & Hashable & Sendable>: Sendable, Hashable,
  CustomStringConvertible
{
  case server(ID)
  /// Eight lowercase hex digits, at least one a letter (``SyncedCollection/newLocalId()``).
  case local(String)

  public var description: String {
    switch self {
    case .server(let id): id.description
    case .local(let id): id
    }
  }

  /// The key on the device: `<name>-<id>` for a server id, `local-<id>` for a local one
  /// (``SyncedCollection/key(_:)`` names it for an item type).
  func key(_ name: String) -> String {
    switch self {
    case .server(let id): "\(name)-\(id)"
    case .local(let id): "local-" + id
    }
  }

  /// The server id in a key `<name>-<id>`; nil for a local key or one of another name.
  static func server(in key: String?, _ name: String) -> ID? {
    guard let key, key.hasPrefix(name + "-") else { return nil }
    return ID(String(key.dropFirst(name.count + 1)))
  }

  /// The local id in a key made by ``SyncedCollection/key(_:)``; nil for a server's key.
  public static func local(in key: String) -> String? {
    key.hasPrefix("local-") ? String(key.dropFirst("local-".count)) : nil
  }
}
