import Strata

/// DummyJSON's `/posts` calls.
enum PostRequests {
  private struct NewPost: Encodable, Sendable {
    let title: String
    let body: String
    let userId: Int
  }
  private struct TitleChange: Encodable, Sendable { let title: String }

  static func list(limit: Int, skip: Int) -> Request<Page<Post>> { Page.request(limit, skip) }

  static func get(id: Int) -> Request<Post> { Request(path: "posts/\(id)") }

  /// `POST /posts/add`: the author must exist (400 / 404 otherwise).
  static func create(title: String, body: String, userId: Int) -> Request<Post> {
    Request(
      path: "posts/add", method: .post, body: NewPost(title: title, body: body, userId: userId))
  }

  static func update(id: Int, title: String) -> Request<Post> {
    Request(path: "posts/\(id)", method: .put, body: TitleChange(title: title))
  }

  static func delete(id: Int) -> Request<EmptyResponse> {
    Request(path: "posts/\(id)", method: .delete)
  }
}
