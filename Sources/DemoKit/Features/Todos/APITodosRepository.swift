import Strata

/// ``TodosRepository`` over DummyJSON.
public final class APITodosRepository: TodosRepository {
  private let network: any Networking

  /// Creates the repository.
  public init(network: any Networking) { self.network = network }

  /// A page of todos.
  /// - Throws: `NetworkError`.
  public func list(limit: Int, skip: Int) async throws -> Page<Todo> {
    try await network.send(TodoRequests.list(limit: limit, skip: skip))
  }

  /// One todo.
  /// - Throws: `NetworkError`.
  public func todo(id: Int) async throws -> Todo {
    try await network.send(TodoRequests.get(id: id))
  }

  /// Sets a todo's completed flag.
  /// - Throws: `NetworkError`.
  public func setCompleted(id: Int, _ completed: Bool) async throws -> Todo {
    try await network.send(TodoRequests.setCompleted(id: id, completed))
  }
}
