import Foundation
import Strata

/// DummyJSON's `/todos` endpoints.
public enum TodosEndpoints {
  /// `GET /todos?limit&skip`.
  public typealias List = ListEndpoint<Todo>

  /// `GET /todos/{id}`.
  public struct Get: Endpoint {
    /// The todo.
    public typealias Response = Todo
    /// The id.
    public let id: Int

    /// Creates the request.
    /// - Parameter id: The id.
    public init(id: Int) { self.id = id }

    /// `todos/{id}`.
    public var path: String { "todos/\(id)" }
  }

  /// `PUT /todos/{id}` with `{"completed": …}`.
  public struct SetCompleted: Endpoint {
    /// The updated todo.
    public typealias Response = Todo
    struct Body: Encodable, Sendable { let completed: Bool }
    /// The id.
    public let id: Int
    /// Done or not.
    public let completed: Bool

    /// Creates the request.
    /// - Parameters:
    ///   - id: The id.
    ///   - completed: Done or not.
    public init(id: Int, completed: Bool) {
      self.id = id
      self.completed = completed
    }
    /// `todos/{id}`.
    public var path: String { "todos/\(id)" }
    /// PUT.
    public var method: HTTPMethod { .put }
    /// `{"completed"}`.
    public var body: (any Encodable & Sendable)? { Body(completed: completed) }
  }
}
