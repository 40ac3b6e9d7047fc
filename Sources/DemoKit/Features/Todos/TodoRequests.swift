import Strata

/// DummyJSON's `/todos` calls.
enum TodoRequests {
  private struct Completion: Encodable, Sendable { let completed: Bool }

  static func list(limit: Int, skip: Int) -> Request<Page<Todo>> { Page.request(limit, skip) }

  static func get(id: Int) -> Request<Todo> { Request(path: "todos/\(id)") }

  static func setCompleted(id: Int, _ completed: Bool) -> Request<Todo> {
    Request(path: "todos/\(id)", method: .put, body: Completion(completed: completed))
  }
}
