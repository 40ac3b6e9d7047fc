import DemoKit
import Strata

/// Sample values of a DummyJSON resource, in the real service's shape.
public protocol FakeItem: PageItem, Identifiable where ID == Int {
  /// What a fake serves unless given other items.
  static var previews: [Self] { get }
}

/// A fake's item that the app also creates and changes: how a call's arguments read in the
/// script (`create(Title, Body, 1, key K)`).
public protocol FakeCollectionItem: FakeItem, CollectionItem {
  /// The item `draft` makes, numbered `id` (as the server numbers a creation).
  init(_ draft: Draft, id: Int)
  static func script(_ draft: Draft) -> [String]
  static func script(_ edit: Edit) -> [String]
}

/// A resource in memory, answered as DummyJSON answers: pages sliced by `limit`/`skip` (limit 0:
/// all), a missing id a 404 with the service's message. Every call is recorded by ``script``.
/// For an item the app changes it is that item's ``CollectionRepository`` (created items are
/// numbered after the last one, as DummyJSON does), so `FakeCollection<Todo>` is
/// `FakeTodosRepository`; for another, each feature makes it its repository by a conditional
/// conformance in its own folder.
public final class FakeCollection<Item: FakeItem>: Sendable {
  public let script: FakeScript
  public let items: [Item]
  /// Answers already given per idempotency key: a repeat gets the first one.
  let answered = Locked([String: Item]())

  public init(_ items: [Item] = Item.previews, script: FakeScript = FakeScript()) {
    (self.items, self.script) = (items, script)
  }

  /// Records `list(limit, skip)`, then answers a slice of the items.
  public func list(limit: Int, skip: Int) async throws -> Page<Item> {
    try await script.call("list", "\(limit), \(skip)")
    return slice(items, limit: limit, skip: skip)
  }

  /// The item with `id`, without recording a call (one call of the API is one recorded call).
  func stored(_ id: Int) throws -> Item {
    guard let item = items.first(where: { $0.id == id }) else {
      throw NetworkError.server(
        status: 404, serverMessage: "\(Item.self) with id '\(id)' not found")
    }
    return item
  }

  /// Records `name(id)`, then answers the item with `id` (404 if none).
  func item(_ name: String, id: Int) async throws -> Item {
    try await script.call(name, "\(id)")
    return try stored(id)
  }

  /// The answer kept for `key`, else `new()` kept for it.
  func once(_ key: String, _ new: () -> Item) -> Item {
    answered.withLock { answers in
      if let first = answers[key] { return first }
      let answer = new()
      answers[key] = answer
      return answer
    }
  }
}

extension FakeCollection: CollectionRepository where Item: FakeCollectionItem {
  public func item(id: Int) async throws -> Item {
    try await item(String(describing: Item.self).lowercased(), id: id)
  }
}

extension FakeCollection: RemoteCollection where Item: FakeCollectionItem {

  /// A key seen before gets its first answer, as a server honouring keys does.
  public func create(_ draft: Item.Draft, idempotencyKey: String) async throws -> Item {
    try await script.call(
      "create", (Item.script(draft) + ["key \(idempotencyKey)"]).joined(separator: ", "))
    return once(idempotencyKey) { Item(draft, id: (items.map(\.id).max() ?? 0) + 1) }
  }

  /// The item as given: a fake's items never change, and carry no version.
  public func latest(id: Int) async throws -> (item: Item, version: String?) {
    try await script.call("latest", "\(id)")
    return (try stored(id), nil)
  }

  public func update(id: Int, _ edit: Item.Edit, idempotencyKey: String, ifMatch version: String?)
    async throws -> (item: Item, version: String?)
  {
    let fields = Item.script(edit) + (version.map { ["if-match \($0)"] } ?? [])
    try await script.call(
      "update", "\(id), \(fields.joined(separator: ", ")), key \(idempotencyKey)")
    return (edit.applied(to: try stored(id)), nil)
  }

  /// Nothing: the item is "deleted".
  public func delete(id: Int, idempotencyKey: String, ifMatch version: String?) async throws {
    try await script.call("delete", "\(id), key \(idempotencyKey)")
    _ = try stored(id)
  }
}
