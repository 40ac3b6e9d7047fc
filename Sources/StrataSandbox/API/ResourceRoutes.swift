import Foundation

extension SandboxAPI {
  /// `/users` (list, `search?q=`, `filter?key=&value=`, by id, a user's posts and todos) and
  /// the simulated `add`, `PUT|PATCH`, `DELETE` (answered, never stored, as DummyJSON does).
  mutating func addUserRoutes() {
    let api = self
    let users = encodedUsers
    route("GET", "/users") { call in call.options.page("users", users) }
    route("GET", "/users/search") { call in
      let query = call.options.search
      let matches = api.seed.users.indices.filter { index in
        let user = api.seed.users[index]
        return query.isEmpty
          || [user.firstName, user.lastName, user.username, user.email].contains {
            $0.lowercased().contains(query)
          }
      }
      return call.options.page("users", matches.map { users[$0] })
    }
    route("GET", "/users/filter") { call in
      guard let key = call.request.queryValue("key"), let value = call.request.queryValue("value")
      else { return call.options.page("users", []) }
      return call.options.page("users", users.filter { Self.nestedValue(key, in: $0) == value })
    }
    route("GET", "/users/{id}") { call in
      call.options.record(try Self.lookUp(call["id"], in: users, kind: "user", label: "User"))
    }
    route("GET", "/users/{id}/posts") { call in
      try api.page(
        "posts", ownedBy: call["id"], api.encodedPosts, api.seed.posts.map(\.userId), call)
    }
    route("GET", "/users/{id}/todos") { call in
      try api.page(
        "todos", ownedBy: call["id"], api.encodedTodos, api.seed.todos.map(\.userId), call,
        .selects)
    }
    route("POST", "/users/add") { call in
      .json(201, object: api.newUser(id: users.count + 1, body: Self.body(call.request)))
    }
    addUpdateAndDelete("users", .user, items: users, kind: "user", label: "User")
  }

  /// `/posts` (list, `search?q=`, by id, by user, a post's comments) and the simulated
  /// `add` (which checks `userId` as the real service does), `PUT|PATCH`, `DELETE`.
  mutating func addPostRoutes() {
    let api = self
    let posts = encodedPosts
    route("GET", "/posts") { call in call.options.page("posts", api.kept.listed("posts", posts)) }
    route("GET", "/posts/search") { call in
      let query = call.options.search
      let matches = api.seed.posts.indices.filter {
        query.isEmpty || api.seed.posts[$0].body.lowercased().contains(query)
      }
      return call.options.page("posts", matches.map { posts[$0] })
    }
    route("GET", "/posts/{id}") { call in
      try api.single("posts", call, in: posts, kind: "post", label: "Post")
    }
    route("GET", "/posts/user/{userId}") { call in
      try api.page("posts", ownedBy: call["userId"], posts, api.seed.posts.map(\.userId), call)
    }
    route("GET", "/posts/{id}/comments") { call in try api.comments(ofPost: call["id"], call) }
    route("POST", "/posts/add") { call in
      try api.create(
        "posts", call.request, after: posts.count,
        fields: ["title", "body", "userId", "tags", "reactions"])
    }
    addUpdateAndDelete("posts", .post, items: posts, kind: "post", label: "Post")
  }

  /// `/todos` (list, random, by id, by user) and the simulated `add`, `PUT|PATCH`, `DELETE`.
  mutating func addTodoRoutes() {
    let api = self
    let todos = encodedTodos
    route("GET", "/todos") { call in
      call.options.page("todos", api.kept.listed("todos", todos), [])
    }
    // Before `/todos/{id}`: the first route that matches answers.
    route("GET", "/todos/random/{length?}") { call in Self.random(todos, length: call["length"]) }
    route("GET", "/todos/{id}") { call in
      try api.single("todos", call, in: todos, kind: "todo", label: "Todo")
    }
    route("GET", "/todos/user/{userId}") { call in
      try api.page(
        "todos", ownedBy: call["userId"], todos, api.seed.todos.map(\.userId), call, .selects)
    }
    route("POST", "/todos/add") { call in
      try api.create(
        "todos", call.request, after: todos.count, fields: ["todo", "completed", "userId"])
    }
    addUpdateAndDelete("todos", .todo, items: todos, kind: "todo", label: "Todo")
  }

  /// One random item, or with a length of 1…10 (`Number` of the segment, so `2.5` is 3) that
  /// many different ones as an array; any other length is `[]`, as on DummyJSON.
  private static func random(_ items: [Data], length: String?) -> SandboxResponse {
    guard let length, !length.isEmpty else {
      return .json(200, items.randomElement() ?? Data("{}".utf8))
    }
    guard let wanted = JavaScriptNumber.number(length), (1...10).contains(wanted) else {
      return .json(200, Data("[]".utf8))
    }
    let chosen = items.indices.shuffled().prefix(min(Int(wanted.rounded(.up)), items.count))
    return .json(
      200,
      Data(
        ("["
          + chosen.map { String(decoding: items[$0], as: UTF8.self) }
          .joined(separator: ",") + "]").utf8))
  }

  /// `/comments` (list, by id, by post) and the simulated `add` (body, post and user checked),
  /// `PUT|PATCH`, `DELETE`. Comments are paged but not sorted or selected, as on DummyJSON.
  mutating func addCommentRoutes() {
    let api = self
    let comments = encodedComments
    route("GET", "/comments") { call in call.options.page("comments", comments, []) }
    route("GET", "/comments/{id}") { call in
      .json(200, try Self.lookUp(call["id"], in: comments, kind: "comment", label: "Comment"))
    }
    route("GET", "/comments/post/{postId}") { call in try api.comments(ofPost: call["postId"], call)
    }
    route("POST", "/comments/add") { call in
      let body = Self.body(call.request)
      guard let text = body["body"] as? String, !text.isEmpty else {
        throw Rejection(400, "Invalid comment body")
      }
      _ = try Self.lookUp(
        Self.text(body["postId"]), in: api.encodedPosts, kind: "post", label: "Post")
      let user = try api.user(Self.text(body["userId"]))
      return .json(
        201,
        object: [
          "id": comments.count + 1, "body": text, "postId": body["postId"] ?? NSNull(),
          "user": [
            "id": user.id, "username": user.username,
            "fullName": "\(user.firstName) \(user.lastName)",
          ],
        ])
    }
    addUpdateAndDelete("comments", .comment, items: comments, kind: "comment", label: "Comment")
  }

  /// `GET /http/{code}/{message?}`: answers with that status, as DummyJSON does —
  /// `application/problem+json` (`type`, `title`, `status`, `detail`, `message`) from 400 up,
  /// no body for 204, and a 500 for a code it does not support.
  mutating func addHTTPStatusRoutes() {
    for method in ["GET", "POST", "PUT", "PATCH", "DELETE"] {
      route(method, "/http/{code}/{message?}") { call in
        let code = call["code"]
        guard Double(code) != nil else { throw Rejection(500, "Status code '\(code)' is invalid") }
        guard let status = Int(code), let title = SandboxResponse.reasonPhrases[status] else {
          throw Rejection(500, "Status code '\(code)' is not supported")
        }
        if status == 204 { return SandboxResponse(status: 204) }
        let message = call.parameters["message"] ?? title
        var object: [String: Any] = ["status": status, "message": message]
        if status >= 400 {
          object["type"] = "about:blank"
          object["title"] = message
          object["detail"] = message
        }
        var response = SandboxResponse.json(status, object: object)
        if status >= 400 {
          response.headers = [("Content-Type", "application/problem+json; charset=utf-8")]
        }
        return response
      }
    }
  }

  // MARK: Record helpers

  /// `PUT|PATCH /<name>/{id}` (the record as `rule` updates it) and `DELETE /<name>/{id}`
  /// (the record with `isDeleted` and `deletedOn`).
  private mutating func addUpdateAndDelete(
    _ name: String, _ rule: RecordUpdate, items: [Data], kind: String, label: String
  ) {
    let api = self
    let now = tokens.now
    for method in ["PUT", "PATCH"] {
      route(method, "/\(name)/{id}") { call in
        let item = try api.stored(name, call["id"], in: items, kind: kind, label: label)
        try api.checkPrecondition(call.request, current: item)
        let updated = try api.update(
          rule, Self.object(item), id: call["id"], body: Self.body(call.request))
        guard let kept = api.kept.keep(name, updated) else { return .json(200, object: updated) }
        return EntityTags.tagged(.json(200, kept), kept)
      }
    }
    route("DELETE", "/\(name)/{id}") { call in
      let item = try api.stored(name, call["id"], in: items, kind: kind, label: label)
      try api.checkPrecondition(call.request, current: item)
      var object = Self.object(item)
      object["isDeleted"] = true
      object["deletedOn"] = ISO8601DateFormatter().string(from: now())
      api.kept.delete(name, call["id"])
      return .json(200, object: object)
    }
  }

  /// `GET /<resource>/{id}`: the record (as kept, when writes are), tagged with its strong
  /// `ETag` when writes are kept and the whole record is sent (no `select`).
  private func single(
    _ resource: String, _ call: Router.Call, in items: [Data], kind: String, label: String
  ) throws(Rejection) -> SandboxResponse {
    let record = try stored(resource, call["id"], in: items, kind: kind, label: label)
    let response = call.options.record(record)
    guard kept.isOn.withLock({ $0 }), response.body == record else { return response }
    return EntityTags.tagged(response, record)
  }

  /// `If-Match` on a write, honoured when writes are kept (RFC 9110 §13.1.1): 412 when it
  /// names no tag of the record as it is now.
  private func checkPrecondition(_ request: SandboxRequest, current: Data) throws(Rejection) {
    guard kept.isOn.withLock({ $0 }) else { return }
    try EntityTags.check(request, current: current)
  }

  /// The items a user owns, paged (the real service checks the user first: 400 for an id that
  /// is not a number, 404 for one it does not know).
  private func page(
    _ key: String, ownedBy userID: String, _ items: [Data], _ owners: [Int], _ call: Router.Call,
    _ listing: QueryOptions.Listing = [.sorts, .selects]
  ) throws(Rejection) -> SandboxResponse {
    _ = try Self.lookUp(userID, in: encodedUsers, kind: "user", label: "User")
    return call.options.page(key, Self.owned(by: userID, items, owners), listing)
  }

  private func comments(ofPost id: String, _ call: Router.Call) throws(Rejection) -> SandboxResponse
  {
    // As kept, when writes are: a post created (or deleted) meanwhile has comments (or none).
    _ = try stored("posts", id, in: encodedPosts, kind: "post", label: "Post")
    return call.options.page(
      "comments", Self.owned(by: id, encodedComments, seed.comments.map(\.postId)), [])
  }

  /// A simulated create: the listed fields of the body, the id after the `seeded` records
  /// (after those created before too, when writes are kept — and then it is kept), and
  /// `userId` checked as the real service checks it (required, a number, an existing user).
  private func create(
    _ resource: String, _ request: SandboxRequest, after seeded: Int, fields: [String]
  ) throws(Rejection) -> SandboxResponse {
    let body = Self.body(request)
    _ = try user(Self.text(body["userId"]))
    var object: [String: Any] = ["id": kept.nextID(resource, after: seeded)]
    for field in fields { object[field] = body[field] }
    kept.keep(resource, object)
    return .json(201, object: object)
  }

  func user(_ id: String) throws(Rejection) -> SandboxUser {
    _ = try Self.lookUp(id, in: encodedUsers, kind: "user", label: "User")
    return seed.users[(Int(Double(id) ?? 1)) - 1]
  }

  /// The items whose owner id, as text, is `id` (the real service compares strings).
  private static func owned(by id: String, _ items: [Data], _ owners: [Int]) -> [Data] {
    owners.indices.filter { String(owners[$0]) == id }.map { items[$0] }
  }

  /// A JSON value as JavaScript's `toString` shows it ("" when absent).
  static func text(_ value: Any?) -> String {
    switch value {
    case let text as String: text
    case let number as NSNumber: number.stringValue
    default: ""
    }
  }

  /// The value at a dotted path (`hair.color`) of an encoded record, as text.
  static func nestedValue(_ path: String, in item: Data) -> String? {
    var value: Any? = object(item)
    for key in path.split(separator: ".") { value = (value as? [String: Any])?[String(key)] }
    guard let value, !(value is [String: Any]), !(value is [Any]) else { return nil }
    let text = text(value)
    return text.isEmpty ? nil : text
  }

  static func object(_ item: Data) -> [String: Any] {
    ((try? JSONSerialization.jsonObject(with: item)) as? [String: Any]) ?? [:]
  }
}
