import Foundation
import Strata

/// An item of a DummyJSON collection the app changes (a post, a todo), numbered by the server.
public protocol CollectionItem: SyncedItem, PageItem, Identifiable where ID == Int {}

/// A DummyJSON collection's requests: Strata's ``RemoteCollection`` (what a synced collection
/// sends) and the reads a screen makes besides — a page with its totals, one item.
public protocol CollectionRepository<Item>: RemoteCollection where Item: CollectionItem {
  /// A page of items.
  func list(limit: Int, skip: Int) async throws -> Page<Item>
  /// - Throws: `NetworkError` (`.server(404)` when absent).
  func item(id: Int) async throws -> Item
}

extension CollectionRepository {
  public func items(limit: Int, skip: Int) async throws -> [Item] {
    try await list(limit: limit, skip: skip).items
  }
}

/// A DummyJSON collection (`/posts`, `/todos`) through the network, at the path its
/// ``PageItem/collectionKey`` names. Writes are keyed, so the service retries them as it
/// retries a GET; DummyJSON refuses an author that does not exist (400 / 404).
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
    request.ifMatch = version
    return try await versioned(request)
  }

  public func delete(id: Int, idempotencyKey: String, ifMatch version: String?) async throws {
    var request = Request<EmptyResponse>(
      path: "\(path)/\(id)", method: .delete, idempotencyKey: idempotencyKey)
    request.ifMatch = version
    _ = try await network.send(request)
  }

  /// The answer and its version: its `ETag`, nil when the server sends none.
  private func versioned(_ request: Request<Item>) async throws -> (item: Item, version: String?) {
    let answer = try await network.send(request)
    return (answer.value, answer.etag)
  }
}
