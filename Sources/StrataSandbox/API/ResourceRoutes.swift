import Foundation

extension SandboxAPI {
  /// `GET /users`, `/users/search?q=`, `/users/{id}`.
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
  }

  /// `GET /posts…`, `POST /posts/add`, `PUT|PATCH|DELETE /posts/{id}` (simulated, as DummyJSON:
  /// changes are answered but not stored).
  mutating func addPostRoutes() {
    let api = self
    route("GET", "/posts") { request, _ in Self.page("posts", api.encodedPosts, request: request) }
    route("GET", "/posts/search") { request, _ in
      let query = (request.queryValue("q") ?? "").lowercased()
      let matches = api.seed.posts.indices.filter {
        query.isEmpty || api.seed.posts[$0].title.lowercased().contains(query)
          || api.seed.posts[$0].body.lowercased().contains(query)
      }
      return Self.page("posts", matches.map { api.encodedPosts[$0] }, request: request)
    }
    route("GET", "/posts/user/{userId}") { request, parameters in
      let userID = Int(parameters["userId"] ?? "") ?? -1
      let matches = api.seed.posts.indices.filter { api.seed.posts[$0].userId == userID }
      return Self.page("posts", matches.map { api.encodedPosts[$0] }, request: request)
    }
    route("GET", "/posts/{id}") { _, parameters in
      api.record(parameters["id"], in: api.encodedPosts, kind: "post", label: "Post")
    }
    route("POST", "/posts/add") { request, _ in
      api.create(request, id: api.seed.posts.count + 1, required: ["title", "userId"])
    }
    for method in ["PUT", "PATCH"] {
      route(method, "/posts/{id}") { request, parameters in
        api.update(
          parameters["id"], in: api.encodedPosts, kind: "post", label: "Post", request: request)
      }
    }
    route("DELETE", "/posts/{id}") { _, parameters in
      api.delete(parameters["id"], in: api.encodedPosts, kind: "post", label: "Post")
    }
  }

  /// `GET /todos…`, `POST /todos/add`, `PUT|PATCH|DELETE /todos/{id}` (simulated).
  mutating func addTodoRoutes() {
    let api = self
    route("GET", "/todos") { request, _ in Self.page("todos", api.encodedTodos, request: request) }
    route("GET", "/todos/user/{userId}") { request, parameters in
      let userID = Int(parameters["userId"] ?? "") ?? -1
      let matches = api.seed.todos.indices.filter { api.seed.todos[$0].userId == userID }
      return Self.page("todos", matches.map { api.encodedTodos[$0] }, request: request)
    }
    route("GET", "/todos/{id}") { _, parameters in
      api.record(parameters["id"], in: api.encodedTodos, kind: "todo", label: "Todo")
    }
    route("POST", "/todos/add") { request, _ in
      api.create(request, id: api.seed.todos.count + 1, required: ["todo", "userId"])
    }
    for method in ["PUT", "PATCH"] {
      route(method, "/todos/{id}") { request, parameters in
        api.update(
          parameters["id"], in: api.encodedTodos, kind: "todo", label: "Todo", request: request)
      }
    }
    route("DELETE", "/todos/{id}") { _, parameters in
      api.delete(parameters["id"], in: api.encodedTodos, kind: "todo", label: "Todo")
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
