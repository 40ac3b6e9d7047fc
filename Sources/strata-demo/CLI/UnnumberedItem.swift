import Foundation

/// An item as `--json` shows it, its `id` null while the server has not numbered it (a model
/// says 0 until then): a client reading the JSON can tell "not yet" from a real number.
struct UnnumberedItem<Item: Encodable>: Encodable {
  let item: Item
  let numbered: Bool

  func encode(to encoder: any Encoder) throws {
    guard !numbered,
      case .object(var fields) = try JSONDecoder().decode(
        JSONValue.self, from: JSONEncoder().encode(item))
    else { return try item.encode(to: encoder) }
    fields["id"] = .null
    try JSONValue.object(fields).encode(to: encoder)
  }
}

/// Any JSON value, read and written again as it was.
private enum JSONValue: Codable {
  case null
  case bool(Bool)
  case integer(Int)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
    } else if let value = try? single.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? single.decode(Int.self) {
      self = .integer(value)
    } else if let value = try? single.decode(Double.self) {
      self = .number(value)
    } else if let value = try? single.decode(String.self) {
      self = .string(value)
    } else if let value = try? single.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try single.decode([String: JSONValue].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var single = encoder.singleValueContainer()
    switch self {
    case .null: try single.encodeNil()
    case .bool(let value): try single.encode(value)
    case .integer(let value): try single.encode(value)
    case .number(let value): try single.encode(value)
    case .string(let value): try single.encode(value)
    case .array(let value): try single.encode(value)
    case .object(let value): try single.encode(value)
    }
  }
}
