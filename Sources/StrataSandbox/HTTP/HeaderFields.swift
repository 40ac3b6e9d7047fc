/// Header fields as received: ordered, repeatable, names compared case-insensitively.
enum HeaderFields {
  /// Every value of the fields named `name` (any letter case), in order.
  static func values(_ name: String, in fields: [(name: String, value: String)]) -> [String] {
    let lower = name.lowercased()
    return fields.filter { $0.name.lowercased() == lower }.map(\.value)
  }
}
