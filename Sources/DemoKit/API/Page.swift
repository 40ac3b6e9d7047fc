import Foundation
import Strata

/// Items that arrive in a DummyJSON envelope under a collection key.
public protocol PageItem: Codable, Sendable {
  /// The envelope key: `users`, `posts`, `todos`.
  static var collectionKey: String { get }
}

/// A DummyJSON page: `{"<items>":[…],"total":…,"skip":…,"limit":…}`.
public struct Page<Item: PageItem>: Codable, Sendable {
  /// The items of this page.
  public let items: [Item]
  /// How many items exist in all.
  public let total: Int
  /// How many were skipped before this page.
  public let skip: Int
  /// How many this page holds.
  public let limit: Int

  /// Whether items remain after this page.
  public var hasMore: Bool { skip + items.count < total }

  public init(items: [Item], total: Int, skip: Int, limit: Int) {
    (self.items, self.total, self.skip, self.limit) = (items, total, skip, limit)
  }

  private struct Key: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// Decodes the envelope, reading items under `Item.collectionKey`.
  /// - Throws: `DecodingError` when a field is missing or mistyped.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    items = try container.decode([Item].self, forKey: Key(stringValue: Item.collectionKey))
    total = try container.decode(Int.self, forKey: Key(stringValue: "total"))
    skip = try container.decode(Int.self, forKey: Key(stringValue: "skip"))
    limit = try container.decode(Int.self, forKey: Key(stringValue: "limit"))
  }

  /// Encodes the same envelope shape.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(items, forKey: Key(stringValue: Item.collectionKey))
    try container.encode(total, forKey: Key(stringValue: "total"))
    try container.encode(skip, forKey: Key(stringValue: "skip"))
    try container.encode(limit, forKey: Key(stringValue: "limit"))
  }
}

extension Page {
  /// `GET /<items>?limit&skip`: one page of any DummyJSON collection, at the path its
  /// ``PageItem/collectionKey`` names.
  public static func request(_ limit: Int, _ skip: Int) -> Request<Page> {
    Request(path: Item.collectionKey, query: ["limit": String(limit), "skip": String(skip)])
  }
}
