import DemoKit
import Strata

/// Sample values of a DummyJSON resource, in the real service's shape.
public protocol FakeItem: PageItem, Identifiable where ID == Int {
  /// What a fake serves unless given other items.
  static var previews: [Self] { get }
}

/// A resource in memory, answered as DummyJSON answers: pages sliced by `limit`/`skip` (limit 0:
/// all), a missing id a 404 with the service's message. Every call is recorded by ``script``.
/// Each feature makes it its repository by a conditional conformance in its own folder, so
/// `FakeCollection<Todo>` is `FakeTodosRepository`.
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
