import Foundation
import Strata

/// Todos: list, read, add, change (text, done or not), delete.
public protocol TodosRepository: Sendable {
  /// A page of todos.
  func list(limit: Int, skip: Int) async throws -> Page<Todo>
  /// - Throws: `NetworkError` (`.server(404)` when absent).
  func todo(id: Int) async throws -> Todo
  /// Adds a todo, sent with `idempotencyKey` — the same on every send of one change (an
  /// outbox entry's own), so a 503 or a lost answer is retried under it, as every write is.
  func add(_ draft: TodoDraft, idempotencyKey: String) async throws -> Todo
  /// The todo as the server has it now (asked, never a kept answer) and its version (a strong
  /// `ETag`; nil when the server sends none): what a change made offline is checked against
  /// just before it is written.
  func latest(id: Int) async throws -> (todo: Todo, version: String?)
  /// Changes a todo's text or completed flag, `If-Match` on `version` when given (a server
  /// whose todo changed since answers 412 and changes nothing).
  func update(id: Int, _ edit: TodoEdit, idempotencyKey: String, ifMatch version: String?)
    async throws -> (todo: Todo, version: String?)
  /// Deletes a todo, `If-Match` on `version` when given.
  func delete(id: Int, idempotencyKey: String, ifMatch version: String?) async throws
}

extension TodosRepository {
  /// Changes a todo whatever its version (last write wins).
  public func update(id: Int, _ edit: TodoEdit, idempotencyKey: String) async throws -> Todo {
    try await update(id: id, edit, idempotencyKey: idempotencyKey, ifMatch: nil).todo
  }

  /// Deletes a todo whatever its version.
  public func delete(id: Int, idempotencyKey: String) async throws {
    try await delete(id: id, idempotencyKey: idempotencyKey, ifMatch: nil)
  }
}

// MARK: - Live implementation

public final class APITodosRepository: TodosRepository {
  private let api: CollectionAPI<Todo>

  public init(network: any Networking) { api = CollectionAPI(network: network) }

  public func list(limit: Int, skip: Int) async throws -> Page<Todo> {
    try await api.page(limit: limit, skip: skip)
  }

  public func todo(id: Int) async throws -> Todo { try await api.item(id: id) }

  public func add(_ draft: TodoDraft, idempotencyKey: String) async throws -> Todo {
    try await api.add(draft, idempotencyKey: idempotencyKey)
  }

  public func latest(id: Int) async throws -> (todo: Todo, version: String?) {
    try await api.latest(id: id)
  }

  public func update(id: Int, _ edit: TodoEdit, idempotencyKey: String, ifMatch version: String?)
    async throws -> (todo: Todo, version: String?)
  {
    try await api.update(id: id, edit, idempotencyKey: idempotencyKey, ifMatch: version)
  }

  public func delete(id: Int, idempotencyKey: String, ifMatch version: String?) async throws {
    try await api.delete(id: id, idempotencyKey: idempotencyKey, ifMatch: version)
  }
}
