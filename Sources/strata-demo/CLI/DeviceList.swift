import DemoKit
import Strata

/// What `posts --local` and `todos --local` print: the items the device keeps for the owner
/// signed in now (an account, or the device when signed out), with where each stands with the
/// server — a table whose footer names the owner, or JSON rows
/// `{"<name>": item, "status", "message", "account"}` (`account` null for the device's).
enum DeviceList {
  @MainActor static func output<Item: Encodable>(
    _ collection: OfflineCollection<Item>, name: Row<Item>.Name, headers: [String],
    row: (OfflineCollection<Item>.Entry) -> [String]
  ) async throws -> Output {
    let owner = await collection.currentOwner()
    let entries = try await collection.local()
    return Output(
      text: .table(
        headers: headers, rows: entries.map(row),
        footer: "\(entries.count) on this device for \(owner)"),
      json: entries.map { Row(name: name, entry: $0, account: owner.account) })
  }

  /// One kept item in JSON.
  struct Row<Item: Codable & Sendable & Equatable>: Encodable {
    /// The item's key: what it is.
    enum Name: String, CodingKey { case post, todo }
    private enum Key: String, CodingKey { case status, message, account }

    let name: Name
    let entry: OfflineCollection<Item>.Entry
    let account: String?

    func encode(to encoder: any Encoder) throws {
      var item = encoder.container(keyedBy: Name.self)
      try item.encode(entry.item, forKey: name)
      var fields = encoder.container(keyedBy: Key.self)
      try fields.encode(entry.status.rawValue, forKey: .status)
      try fields.encodeIfPresent(entry.message, forKey: .message)
      try fields.encode(account, forKey: .account)
    }
  }
}
