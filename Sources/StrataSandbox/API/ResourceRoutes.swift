import Foundation

extension SandboxAPI {
  /// `GET /users`, `/users/search?q=`, `/users/{id}`, `PUT|PATCH /users/{id}` (simulated).
  mutating func addUserRoutes() {
    let api = self
    route("GET", "/users") { request, _ in Self.page("users", api.encodedUsers, request: request) }
    route("GET", "/users/search") { request, _ in
      let query = (request.queryValue("q") ?? "").lowercased()
      let matches = api.seed.users.indices.filter { index in
        let user = api.seed.users[index]
        return query.isEmpty
          || [user.firstName, user.lastName, user.username, user.email].contains {
            $0.lowercased().contains(query)
          }
      }
      return Self.page("users", matches.map { api.encodedUsers[$0] }, request: request)
    }
    route("GET", "/users/{id}") { request, parameters in
      api.record(parameters["id"], in: api.encodedUsers, kind: "user", label: "User")
    }
    for method in ["PUT", "PATCH"] {
      route(method, "/users/{id}") { request, parameters in
        api.update(
          parameters["id"], in: api.encodedUsers, kind: "user", label: "User", request: request)
      }
    }
  }

  /// `GET /posts…`, `POST /posts/add`, `PUT|PATCH|DELETE /posts/{id}` (simulated, as DummyJSON:
  /// changes are answered but not stored), plus `/posts/search?q=`.
  mutating func addPostRoutes() {
    let api = self
    route("GET", "/posts/search") { request, _ in
      let query = (request.queryValue("q") ?? "").lowercased()
      let matches = api.seed.posts.indices.filter {
        query.isEmpty || api.seed.posts[$0].title.lowercased().contains(query)
          || api.seed.posts[$0].body.lowercased().contains(query)
      }
      return Self.page("posts", matches.map { api.encodedPosts[$0] }, request: request)
    }
    addCollection(
      "posts", label: "Post", items: encodedPosts, owners: seed.posts.map(\.userId),
      required: ["title", "userId"])
  }

  /// `GET /todos…`, `POST /todos/add`, `PUT|PATCH|DELETE /todos/{id}` (simulated).
  mutating func addTodoRoutes() {
    addCollection(
      "todos", label: "Todo", items: encodedTodos, owners: seed.todos.map(\.userId),
      required: ["todo", "userId"])
  }

  /// The routes every DummyJSON collection has: list, by owner, by id, add, update, delete.
  private mutating func addCollection(
    _ name: String, label: String, items: [Data], owners: [Int], required: [String]
  ) {
    let api = self
    let kind = label.lowercased()
    route("GET", "/\(name)") { request, _ in Self.page(name, items, request: request) }
    route("GET", "/\(name)/user/{userId}") { request, parameters in
      let userID = Int(parameters["userId"] ?? "") ?? -1
      return Self.page(
        name, owners.indices.filter { owners[$0] == userID }.map { items[$0] }, request: request)
    }
    route("GET", "/\(name)/{id}") { _, parameters in
      api.record(parameters["id"], in: items, kind: kind, label: label)
    }
    route("POST", "/\(name)/add") { request, _ in
      api.create(request, id: items.count + 1, required: required)
    }
    for method in ["PUT", "PATCH"] {
      route(method, "/\(name)/{id}") { request, parameters in
        api.update(parameters["id"], in: items, kind: kind, label: label, request: request)
      }
    }
    route("DELETE", "/\(name)/{id}") { _, parameters in
      api.delete(parameters["id"], in: items, kind: kind, label: label)
    }
  }

  /// `GET /http/{code}/{message?}`: answers with that status, as DummyJSON does.
  mutating func addHTTPRoutes() {
    route("GET", "/http/{code}/{message?}") { _, parameters in
      guard let code = Int(parameters["code"] ?? ""), (200...599).contains(code) else {
        return .message(400, "Invalid status code '\(parameters["code"] ?? "")'")
      }
      if code == 204 { return SandboxResponse(status: 204) }
      let message = parameters["message"] ?? SandboxResponse.reason(code)
      return .json(code, object: ["status": code, "message": message])
    }
  }

  // MARK: Record helpers

  private func lookUp(_ text: String?, in items: [Data], kind: String, label: String) -> Result<
    Data, Rejection
  > {
    switch Self.id(text, kind: kind) {
    case .failure(let rejection): return .failure(rejection)
    case .success(let id):
      guard items.indices.contains(id - 1) else {
        return .failure(Rejection(.message(404, "\(label) with id '\(id)' not found")))
      }
      return .success(items[id - 1])
    }
  }

  func record(_ text: String?, in items: [Data], kind: String, label: String) -> SandboxResponse {
    switch lookUp(text, in: items, kind: kind, label: label) {
    case .success(let item): .json(200, item)
    case .failure(let rejection): rejection.response
    }
  }

  func update(
    _ text: String?, in items: [Data], kind: String, label: String, request: SandboxRequest
  ) -> SandboxResponse {
    switch lookUp(text, in: items, kind: kind, label: label) {
    case .success(let item): Self.merge(item, with: request)
    case .failure(let rejection): rejection.response
    }
  }

  func delete(_ text: String?, in items: [Data], kind: String, label: String) -> SandboxResponse {
    switch lookUp(text, in: items, kind: kind, label: label) {
    case .failure(let rejection): return rejection.response
    case .success(let item):
      guard var object = (try? JSONSerialization.jsonObject(with: item)) as? [String: Any] else {
        return .message(500, "Corrupt record")
      }
      object["isDeleted"] = true
      object["deletedOn"] = ISO8601DateFormatter().string(from: tokens.now())
      return .json(200, object: object)
    }
  }

  func create(_ request: SandboxRequest, id: Int, required: [String]) -> SandboxResponse {
    guard var object = request.jsonObject else {
      return .message(400, "Body must be a JSON object")
    }
    if let missing = required.first(where: { object[$0] == nil }) {
      return .message(400, "Field '\(missing)' is required")
    }
    object["id"] = id
    return .json(201, object: object)
  }
}
