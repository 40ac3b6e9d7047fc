import Strata

/// DummyJSON's `/users` calls.
enum UserRequests {
  private struct NameChange: Encodable, Sendable { let firstName: String }

  static func list(limit: Int, skip: Int) -> Request<Page<User>> { Page.request(limit, skip) }

  static func search(_ query: String, limit: Int, skip: Int) -> Request<Page<User>> {
    Request(
      path: "users/search",
      query: ["q": query, "limit": String(limit), "skip": String(skip)])
  }

  static func get(id: Int) -> Request<User> { Request(path: "users/\(id)") }

  /// `PUT /users/{id}` with the changed field only.
  static func update(id: Int, firstName: String) -> Request<User> {
    Request(path: "users/\(id)", method: .put, body: NameChange(firstName: firstName))
  }
}
