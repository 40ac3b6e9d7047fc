import Foundation
import Strata

/// Todos: list and mark done or not.
public protocol TodosRepository: Sendable {
  /// A page of todos.
  func list(limit: Int, skip: Int) async throws -> Page<Todo>
  /// - Throws: `NetworkError` (`.server(404)` when absent).
  func todo(id: Int) async throws -> Todo
  /// Sets a todo's completed flag.
  func setCompleted(id: Int, _ completed: Bool) async throws -> Todo
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
  public func setCompleted(id: Int, _ completed: Bool) async throws -> Todo {
    try await network.send(TodoRequests.setCompleted(id: id, completed)).value
  }
}

// MARK: - Requests

private enum TodoRequests {
  private struct Completion: Encodable, Sendable { let completed: Bool }

  static func get(id: Int) -> Request<Todo> { Request(path: "todos/\(id)") }

  /// Keyed: a 503 or a lost answer is retried under one key.
  static func setCompleted(id: Int, _ completed: Bool) -> Request<Todo> {
    Request(
      path: "todos/\(id)", method: .put, body: Completion(completed: completed),
      idempotencyKey: UUID().uuidString)
  }
}
