import DemoKit
import Strata

/// What `posts --local` and `todos --local` print: the items the device keeps, with where
/// each stands with the server — a table, or JSON rows `{"<name>": item, "status", "message"}`.
enum DeviceList {
  static func output<Item: Encodable>(
    _ entries: [OfflineCollection<Item>.Entry], name: Row<Item>.Name, headers: [String],
    row: (OfflineCollection<Item>.Entry) -> [String]
  ) -> Output {
    Output(
      text: .table(
        headers: headers, rows: entries.map(row), footer: "\(entries.count) on this device"),
      json: entries.map { Row(name: name, entry: $0) })
  }

  /// One kept item in JSON.
  struct Row<Item: Codable & Sendable & Equatable>: Encodable {
    /// The item's key: what it is.
    enum Name: String, CodingKey { case post, todo }
    private enum Key: String, CodingKey { case status, message }

    let name: Name
    let entry: OfflineCollection<Item>.Entry

    func encode(to encoder: any Encoder) throws {
      var item = encoder.container(keyedBy: Name.self)
      try item.encode(entry.item, forKey: name)
      var fields = encoder.container(keyedBy: Key.self)
      try fields.encode(entry.status.rawValue, forKey: .status)
      try fields.encodeIfPresent(entry.message, forKey: .message)
    }
  }
}
