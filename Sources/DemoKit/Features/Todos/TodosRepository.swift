import Foundation
import Strata

/// Todos: list and mark done or not.
public protocol TodosRepository: Sendable {
  /// A page of todos.
  func list(limit: Int, skip: Int) async throws -> Page<Todo>
  /// - Throws: `NetworkError` (`.server(404)` when absent).
  func todo(id: Int) async throws -> Todo
  /// Sets a todo's completed flag, sent with `idempotencyKey` — the same on every send of
  /// one change (an outbox entry's own), so a 503 or a lost answer is retried under it.
  func setCompleted(id: Int, _ completed: Bool, idempotencyKey: String) async throws -> Todo
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
    try await network.send(TodoRequests.get(id: id)).value
  }

  /// Sets a todo's completed flag.
  public func setCompleted(id: Int, _ completed: Bool, idempotencyKey: String) async throws
    -> Todo
  {
    try await network.send(
      TodoRequests.setCompleted(id: id, completed, idempotencyKey: idempotencyKey)
    ).value
  }
}

// MARK: - Requests

private enum TodoRequests {
  private struct Completion: Encodable, Sendable { let completed: Bool }

  static func get(id: Int) -> Request<Todo> { Request(path: "todos/\(id)") }

  static func setCompleted(id: Int, _ completed: Bool, idempotencyKey: String) -> Request<Todo> {
    Request(
      path: "todos/\(id)", method: .put, body: Completion(completed: completed),
      idempotencyKey: idempotencyKey)
  }
}
