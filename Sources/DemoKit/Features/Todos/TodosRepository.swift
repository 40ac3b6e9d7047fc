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
  /// Changes a todo's text or completed flag.
  func update(id: Int, _ edit: TodoEdit, idempotencyKey: String) async throws -> Todo
  func delete(id: Int, idempotencyKey: String) async throws
}

// MARK: - Live implementation

public final class APITodosRepository: TodosRepository {
  private let network: any Networking

  public init(network: any Networking) { self.network = network }

  /// A page of todos.
  public func list(limit: Int, skip: Int) async throws -> Page<Todo> {
    try await network.send(Page.request(limit, skip)).value
  }

  public func todo(id: Int) async throws -> Todo {
    try await network.send(Request(path: "todos/\(id)")).value
  }

  public func add(_ draft: TodoDraft, idempotencyKey: String) async throws -> Todo {
    try await network.send(
      Request(path: "todos/add", method: .post, body: .json(draft), idempotencyKey: idempotencyKey)
    ).value
  }

  public func update(id: Int, _ edit: TodoEdit, idempotencyKey: String) async throws -> Todo {
    try await network.send(
      Request(path: "todos/\(id)", method: .put, body: .json(edit), idempotencyKey: idempotencyKey)
    ).value
  }

  public func delete(id: Int, idempotencyKey: String) async throws {
    _ = try await network.send(
      Request<EmptyResponse>(
        path: "todos/\(id)", method: .delete, idempotencyKey: idempotencyKey))
  }
}
