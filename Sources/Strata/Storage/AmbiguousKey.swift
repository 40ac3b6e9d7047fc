import Foundation

/// A change addressed by a key that names more than one value on the device: the server's key
/// of several things made here (``StoredRecord/serverKey``) — a server that answers every
/// creation with one id numbers them all alike. Nothing was changed; name one of `matching`,
/// the values' own keys, instead.
public struct AmbiguousKey: Error, LocalizedError, Sendable, Equatable, CustomStringConvertible {
  /// The key the change was addressed to.
  public let key: String
  /// The own keys of every value it names, in order.
  public let matching: [String]

  public init(key: String, matching: [String]) { (self.key, self.matching) = (key, matching) }

  public var description: String {
    "\(key) names \(matching.count) values on this device (\(matching.joined(separator: ", "))); "
      + "name one by its own key"
  }

  public var errorDescription: String? { description }
}
