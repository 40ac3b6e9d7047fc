import Foundation
import Strata

/// An item of a DummyJSON collection the app changes (a post, a todo): what creating one
/// sends (``Draft``), what changing one sends (``Edit``), and how the device shows each before
/// the server answers.
public protocol CollectionItem: PageItem, Identifiable, Equatable where ID == Int {
  associatedtype Draft: Codable & Sendable & Equatable
  associatedtype Edit: ItemEdit where Edit.Item == Self
  /// The item `draft` makes, numbered `id` (0 until the server numbers it).
  init(_ draft: Draft, id: Int)
  /// What creating this item as it stands sends: an edit of an item whose creation is not
  /// sent yet becomes part of the creation.
  var draft: Draft { get }
}

/// A change to an item: the fields given are replaced (`PUT /<items>/:id` sends only them).
public protocol ItemEdit: Codable, Sendable, Equatable {
  associatedtype Item
  /// This edit, then `later` on top of it: one edit saying both.
  func then(_ later: Self) -> Self
  /// `item` with this edit made.
  func applied(to item: Item) -> Item
}

/// A collection's requests: list, read, create, change, delete. Every write carries an
/// idempotency key — the same on every send of one change (an outbox entry's own), so a 503
/// or a lost answer is retried under it, and never made twice where the server answers a
/// repeated key with its first answer (the sandbox does; DummyJSON ignores the key). A change
/// or a deletion given a version goes `If-Match` on it: a server whose item changed since
/// answers 412 (`NetworkError` with status 412) and changes nothing.
public protocol CollectionRepository<Item>: Sendable {
  associatedtype Item: CollectionItem
  /// A page of items.
  func list(limit: Int, skip: Int) async throws -> Page<Item>
  /// - Throws: `NetworkError` (`.server(404)` when absent).
  func item(id: Int) async throws -> Item
  /// The item as the server has it now (asked, never a kept answer) and its version (a strong
  /// `ETag`; nil when the server sends none): what a change made offline is checked against
  /// just before it is written.
  func latest(id: Int) async throws -> (item: Item, version: String?)
  /// `POST /<items>/add`.
  func create(_ draft: Item.Draft, idempotencyKey: String) async throws -> Item
  /// - Returns: The item as changed, and its new version when the server sent one.
  func update(id: Int, _ edit: Item.Edit, idempotencyKey: String, ifMatch version: String?)
    async throws -> (item: Item, version: String?)
  func delete(id: Int, idempotencyKey: String, ifMatch version: String?) async throws
}

extension CollectionRepository {
  /// Changes an item whatever its version (last write wins).
  public func update(id: Int, _ edit: Item.Edit, idempotencyKey: String) async throws -> Item {
    try await update(id: id, edit, idempotencyKey: idempotencyKey, ifMatch: nil).item
  }

  /// Deletes an item whatever its version.
  public func delete(id: Int, idempotencyKey: String) async throws {
    try await delete(id: id, idempotencyKey: idempotencyKey, ifMatch: nil)
  }
}

/// A DummyJSON collection (`/posts`, `/todos`) through the network, at the path its
/// ``PageItem/collectionKey`` names.
public final class APICollectionRepository<Item: CollectionItem>: CollectionRepository {
  private let network: any Networking

  public init(network: any Networking) { self.network = network }

  private var path: String { Item.collectionKey }

  public func list(limit: Int, skip: Int) async throws -> Page<Item> {
    try await network.send(Page.request(limit, skip)).value
  }

  public func item(id: Int) async throws -> Item {
    try await network.send(Request<Item>(path: "\(path)/\(id)")).value
  }

  public func latest(id: Int) async throws -> (item: Item, version: String?) {
    var request = Request<Item>(path: "\(path)/\(id)")
    request.cachePolicy = .revalidate
    return try await versioned(request)
  }

  /// Keyed, so the service retries it as it retries a GET; DummyJSON refuses an author that
  /// does not exist (400 / 404).
  public func create(_ draft: Item.Draft, idempotencyKey: String) async throws -> Item {
    try await network.send(
      Request<Item>(
        path: "\(path)/add", method: .post, body: .json(draft), idempotencyKey: idempotencyKey)
    ).value
  }

  public func update(
    id: Int, _ edit: Item.Edit, idempotencyKey: String, ifMatch version: String?
  ) async throws -> (item: Item, version: String?) {
    var request = Request<Item>(
      path: "\(path)/\(id)", method: .put, body: .json(edit), idempotencyKey: idempotencyKey)
    request.headers["If-Match"] = version
    return try await versioned(request)
  }

  public func delete(id: Int, idempotencyKey: String, ifMatch version: String?) async throws {
    var request = Request<EmptyResponse>(
      path: "\(path)/\(id)", method: .delete, idempotencyKey: idempotencyKey)
    request.headers["If-Match"] = version
    _ = try await network.send(request)
  }

  /// The answer and its version: a strong `ETag`, nil when the server sends none.
  private func versioned(_ request: Request<Item>) async throws -> (item: Item, version: String?) {
    let answer = try await network.send(request)
    return (answer.value, EntityTag.strong(answer.etag))
  }
}
