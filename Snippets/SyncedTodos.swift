import Foundation
import Strata

/// A DummyJSON todo, kept on the device and changed offline.
public struct Todo: SyncedItem {
  public struct Draft: Codable, Sendable, Equatable {
    public var todo: String, completed = false, userId: Int
    public init(todo: String, userId: Int) { (self.todo, self.userId) = (todo, userId) }
  }
  /// `PUT /todos/:id` replaces the fields it sends.
  public struct Edit: ItemEdit {
    public var todo: String?, completed: Bool?
    public init(todo: String? = nil, completed: Bool? = nil) {
      (self.todo, self.completed) = (todo, completed)
    }

    public func then(_ later: Edit) -> Edit {
      Edit(todo: later.todo ?? todo, completed: later.completed ?? completed)
    }
    public func applied(to item: Todo) -> Todo {
      Todo(
        id: item.id, todo: todo ?? item.todo, completed: completed ?? item.completed,
        userId: item.userId)
    }
  }

  public var id: Int, todo: String, completed: Bool, userId: Int

  public static var itemName: String { "todo" }
  public init(id: Int, todo: String, completed: Bool, userId: Int) {
    (self.id, self.todo, self.completed, self.userId) = (id, todo, completed, userId)
  }
  public init(_ draft: Draft) {
    self.init(id: 0, todo: draft.todo, completed: draft.completed, userId: draft.userId)
  }
  public var draft: Draft {
    var draft = Draft(todo: todo, userId: userId)
    draft.completed = completed
    return draft
  }
}

/// DummyJSON's `/todos`: the requests; everything else is the synced collection's.
public struct TodosAPI: RemoteCollection {
  private struct Page: Decodable { let todos: [Todo] }
  let network: any Networking
  public init(network: any Networking) { self.network = network }

  public func items(limit: Int, skip: Int) async throws -> [Todo] {
    let page = Request<Page>(path: "todos", query: ["limit": "\(limit)", "skip": "\(skip)"])
    return try await network.send(page).value.todos
  }
  public func latest(id: Int) async throws -> (item: Todo, version: String?) {
    var read = Request<Todo>(path: "todos/\(id)")
    read.cachePolicy = .revalidate
    let answer = try await network.send(read)
    return (answer.value, answer.etag)
  }
  public func create(_ draft: Todo.Draft, idempotencyKey: String) async throws -> Todo {
    let add = Request<Todo>(
      path: "todos/add", method: .post, body: .json(draft), idempotencyKey: idempotencyKey)
    return try await network.send(add).value
  }
  public func update(id: Int, _ edit: Todo.Edit, idempotencyKey: String, ifMatch: String?)
    async throws -> (item: Todo, version: String?)
  {
    var put = Request<Todo>(
      path: "todos/\(id)", method: .put, body: .json(edit), idempotencyKey: idempotencyKey)
    put.ifMatch = ifMatch
    let answer = try await network.send(put)
    return (answer.value, answer.etag)
  }
  public func delete(id: Int, idempotencyKey: String, ifMatch: String?) async throws {
    var delete = Request<EmptyResponse>(
      path: "todos/\(id)", method: .delete, idempotencyKey: idempotencyKey)
    delete.ifMatch = ifMatch
    _ = try await network.send(delete)
  }
}
