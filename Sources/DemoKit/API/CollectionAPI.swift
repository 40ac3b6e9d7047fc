import Foundation
import Strata

/// The requests a DummyJSON collection (`/posts`, `/todos`) answers alike, at the path its
/// ``PageItem/collectionKey`` names: every write carries an idempotency key, and a change or a
/// delete given a version carries `If-Match` on it (a server whose item changed since
/// answers 412 and changes nothing).
struct CollectionAPI<Item: PageItem> {
  let network: any Networking

  private var path: String { Item.collectionKey }

  func page(limit: Int, skip: Int) async throws -> Page<Item> {
    try await network.send(Page.request(limit, skip)).value
  }

  /// - Throws: `NetworkError` (`.server(404)` when absent).
  func item(id: Int) async throws -> Item {
    try await network.send(Request<Item>(path: "\(path)/\(id)")).value
  }

  /// `POST /<items>/add`, keyed, so the service retries it as it retries a GET.
  func add(_ draft: some Encodable & Sendable, idempotencyKey: String) async throws -> Item {
    try await network.send(
      Request<Item>(
        path: "\(path)/add", method: .post, body: .json(draft), idempotencyKey: idempotencyKey)
    ).value
  }

  /// The item as the server has it now (asked, never a kept answer) and its version.
  func latest(id: Int) async throws -> (Item, version: String?) {
    var request = Request<Item>(path: "\(path)/\(id)")
    request.cachePolicy = .revalidate
    return try await versioned(request)
  }

  func update(
    id: Int, _ edit: some Encodable & Sendable, idempotencyKey: String, ifMatch version: String?
  ) async throws -> (Item, version: String?) {
    var request = Request<Item>(
      path: "\(path)/\(id)", method: .put, body: .json(edit), idempotencyKey: idempotencyKey)
    request.headers["If-Match"] = version
    return try await versioned(request)
  }

  func delete(id: Int, idempotencyKey: String, ifMatch version: String?) async throws {
    var request = Request<EmptyResponse>(
      path: "\(path)/\(id)", method: .delete, idempotencyKey: idempotencyKey)
    request.headers["If-Match"] = version
    _ = try await network.send(request)
  }

  /// The answer and its version: a strong `ETag`, nil when the server sends none.
  private func versioned(_ request: Request<Item>) async throws -> (Item, version: String?) {
    let answer = try await network.send(request)
    return (answer.value, EntityTag.strong(answer.etag))
  }
}
