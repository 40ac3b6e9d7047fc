import DemoKit
import Foundation
import Strata

/// A field of an item that `--where` and `--sort` can name, and what a value of it is.
struct QueryField<Item: SyncedItem>: Sendable {
  enum Kind: String, Sendable { case number, text, flag }

  let name: String
  let kind: Kind
  /// The filter `--where name=value` asks for; nil when `value` is not one of `kind`.
  let filter: @Sendable (String) -> (@Sendable (Item) -> Bool)?
  let ascending: ValueOrder<Item>
  let descending: ValueOrder<Item>

  static func number(_ name: String, _ read: @escaping @Sendable (Item) -> Int) -> QueryField {
    QueryField(
      name: name, kind: .number,
      filter: { text in
        guard let wanted = Int(text), String(wanted) == text else { return nil }
        return { read($0) == wanted }
      }, ascending: .ascending(read), descending: .descending(read))
  }

  static func string(_ name: String, _ read: @escaping @Sendable (Item) -> String) -> QueryField {
    QueryField(
      name: name, kind: .text, filter: { text in { read($0) == text } },
      ascending: .ascending(read), descending: .descending(read))
  }

  static func flag(_ name: String, _ read: @escaping @Sendable (Item) -> Bool) -> QueryField {
    let order: @Sendable (Item) -> Int = { read($0) ? 1 : 0 }
    return QueryField(
      name: name, kind: .flag,
      filter: { text in
        guard let wanted = Bool(text) else { return nil }
        return { read($0) == wanted }
      }, ascending: .ascending(order), descending: .descending(order))
  }
}

/// `--where FIELD=VALUE` (again for each more that must hold), `--sort [-]FIELD[,…]` (a `-`:
/// largest first), `--limit` and `--skip` over the device's items — a query the store runs
/// (``ValueQuery``) — for `posts --local` and `todos --local`.
enum LocalQuery {
  static let options = [
    OptionSpec(name: "where", valueName: "FIELD=VALUE", help: "option.where"),
    OptionSpec(name: "sort", valueName: "FIELD", help: "option.sort"),
  ]

  /// The query `invocation` asks for over items with `fields`.
  /// - Throws: ``UsageError`` naming the fields or the kind of value allowed.
  static func parse<Item>(_ invocation: Invocation, fields: [QueryField<Item>]) throws
    -> ValueQuery<Item>
  {
    let text = Localized.current
    func field(_ name: String, _ option: String) throws -> QueryField<Item> {
      guard let found = fields.first(where: { $0.name == name }) else {
        throw UsageError(
          text(
            "usage.queryField",
            [
              "option": option, "fields": fields.map(\.name).joined(separator: ", "),
              "got": Invocation.quoted(name),
            ]), invocation.command)
      }
      return found
    }
    var filters: [@Sendable (Item) -> Bool] = []
    for condition in invocation.values("where") {
      guard let equals = condition.firstIndex(of: "=") else {
        throw UsageError(
          text("usage.whereForm", ["got": Invocation.quoted(condition)]), invocation.command)
      }
      let named = try field(String(condition[..<equals]), "where")
      let value = String(condition[condition.index(after: equals)...])
      guard let filter = named.filter(value) else {
        throw UsageError(
          text(
            "usage.queryValue",
            [
              "field": named.name, "kind": text("query.kind." + named.kind.rawValue),
              "got": Invocation.quoted(value),
            ]), invocation.command)
      }
      filters.append(filter)
    }
    let order = try invocation.values("sort").flatMap { $0.split(separator: ",") }.map {
      key -> ValueOrder<Item> in
      let descending = key.hasPrefix("-")
      let named = try field(String(descending ? key.dropFirst() : key), "sort")
      return descending ? named.descending : named.ascending
    }
    let all = filters
    let filter: (@Sendable (Item) -> Bool)? =
      all.isEmpty ? nil : { @Sendable item in all.allSatisfy { $0(item) } }
    let limit: Int? =
      invocation.option("limit") == nil
      ? nil : try invocation.integer("limit", default: 0, in: 1...1_000_000)
    let offset = try invocation.integer("skip", default: 0)
    return ValueQuery(where: filter, sortedBy: order, offset: offset, limit: limit)
  }
}
