import Foundation

/// The query parameters every DummyJSON route understands, validated once per request with
/// the real service's answers: `limit`/`skip` (read as JavaScript reads them: see
/// ``JavaScriptNumber``; `limit=0` is all), `select` (comma-separated fields; `id` always
/// kept), `sortBy` with `order` (asc/desc), `q` (search text) and `delay` (0…5000 ms).
struct QueryOptions: Sendable {
  enum Order: String, Sendable {
    case ascending = "asc"
    case descending = "desc"
  }

  /// `parseInt` of the query value; nil where JavaScript has `NaN` (`limit=`, `limit=1e9999`).
  var limit: Int? = 30
  var skip: Int? = 0
  var select: [String]?
  var sortBy: String?
  var order = Order.ascending
  var search = ""
  var delay = 0

  /// Longest `?delay=` the real service accepts, in milliseconds.
  static let maxDelay = 5_000

  init() {}

  init(_ request: SandboxRequest) throws(Rejection) {
    if let text = request.queryValue("limit") {
      guard JavaScriptNumber.number(text) != nil else {
        throw Rejection(400, "Invalid 'limit' - must be a number")
      }
      limit = JavaScriptNumber.parseInt(text)
    }
    if let text = request.queryValue("skip") {
      guard JavaScriptNumber.number(text) != nil else {
        throw Rejection(400, "Invalid 'skip' - must be a number")
      }
      skip = JavaScriptNumber.parseInt(text)
    }
    delay = try Self.delay(request)
    if let text = request.queryValue("select"), !text.isEmpty {
      select = ["id"] + text.split(separator: ",").map { String($0) }
    }
    if let field = request.queryValue("sortBy"), !field.isEmpty {
      sortBy = field
      if let text = request.queryValue("order"), !text.isEmpty {
        guard let order = Order(rawValue: text.lowercased()) else {
          throw Rejection(400, "Order can be: 'asc' or 'desc'")
        }
        self.order = order
      }
    }
    search = (request.queryValue("q") ?? "").trimmingCharacters(in: .whitespaces).lowercased()
      .replacingOccurrences(of: "-", with: " ")
  }

  /// `?delay=` in milliseconds, 0 when absent: checked as the service compares the text
  /// (`"1e4" > 5000`), then used as `parseInt` reads it (`1e3` waits 1 ms).
  static func delay(_ request: SandboxRequest) throws(Rejection) -> Int {
    guard let text = request.queryValue("delay"), !text.isEmpty, text != "0" else { return 0 }
    guard let value = JavaScriptNumber.number(text) else {
      throw Rejection(400, "Delay must be a number in milliseconds")
    }
    guard value <= Double(maxDelay) else {
      throw Rejection(400, "Delay cannot be greater than 5 seconds")
    }
    guard value >= 0 else { throw Rejection(400, "Delay cannot be less than 0") }
    return max(0, JavaScriptNumber.parseInt(text) ?? 0)
  }

  /// What a list route does with its records.
  struct Listing: OptionSet, Sendable {
    let rawValue: Int
    static let sorts = Listing(rawValue: 1)
    static let selects = Listing(rawValue: 2)
  }

  /// `{"<key>":[…],"total":…,"skip":…,"limit":…}`: sorted, skipped, limited and selected as
  /// the real service does it (`total` counts before paging; `limit` is the count returned).
  func page(_ key: String, _ items: [Data], _ listing: Listing = [.sorts, .selects])
    -> SandboxResponse
  {
    var items = items
    if listing.contains(.sorts), let sortBy { items = sorted(items, by: sortBy) }
    let total = items.count
    // The service: `if (skip > 0) slice(skip)`, then `limit === 0 || limit > length ? all :
    // slice(0, limit)`; a negative limit drops items from the end, NaN keeps none.
    let start = min(max(skip ?? 0, 0), total)
    let count = limit == 0 ? total - start : JavaScriptNumber.prefixCount(limit, of: total - start)
    var slice = Array(items[start..<(start + count)])
    if listing.contains(.selects), let select { slice = slice.map { Self.subset($0, select) } }
    var body = Data("{\"\(key)\":[".utf8)
    for (index, item) in slice.enumerated() {
      if index > 0 { body.append(UInt8(ascii: ",")) }
      body.append(item)
    }
    body.append(
      contentsOf: Array(
        "],\"total\":\(total),\"skip\":\(skip.map(String.init) ?? "null"),\"limit\":\(slice.count)}"
          .utf8))
    return .json(200, body)
  }

  /// One record, reduced to `select` when given.
  func record(_ item: Data) -> SandboxResponse {
    .json(200, select.map { Self.subset(item, $0) } ?? item)
  }

  /// JavaScript's comparison of two JSON values, as `Array.prototype.sort` in the real
  /// service applies it: numbers by value, strings by UTF-16 code units, anything else equal.
  private func sorted(_ items: [Data], by field: String) -> [Data] {
    let keyed = items.map { item in (item, SandboxAPI.object(item)[field]) }
    func ascending(_ a: Any?, _ b: Any?) -> Bool? {
      switch (a, b) {
      case (let x as String, let y as String):
        x == y ? nil : Array(x.utf16).lexicographicallyPrecedes(y.utf16)
      case (let x as NSNumber, let y as NSNumber): x == y ? nil : x.doubleValue < y.doubleValue
      default: nil
      }
    }
    let order = order
    return keyed.enumerated().sorted { lhs, rhs in
      guard let isAscending = ascending(lhs.element.1, rhs.element.1) else {
        return lhs.offset < rhs.offset
      }
      return order == .ascending ? isAscending : !isAscending
    }.map(\.element.0)
  }

  /// The record with only `fields` (absent ones left out, as `undefined` is in JSON).
  static func subset(_ item: Data, _ fields: [String]) -> Data {
    let object = SandboxAPI.object(item)
    guard !object.isEmpty else { return item }
    let wanted = Set(fields.map { $0.trimmingCharacters(in: .whitespaces) })
    return
      (try? JSONSerialization.data(
        withJSONObject: object.filter { wanted.contains($0.key) },
        options: [.sortedKeys, .withoutEscapingSlashes])) ?? item
  }
}
