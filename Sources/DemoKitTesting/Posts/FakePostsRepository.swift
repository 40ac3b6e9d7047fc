import DemoKit
import Strata

/// Created posts are numbered after the last one, as DummyJSON does.
public typealias FakePostsRepository = FakeCollection<Post>

extension FakeCollection: PostsRepository where Item == Post {
  public func post(id: Int) async throws -> Post { try await item("post", id: id) }

  /// A key seen before gets its first answer, as a server honouring keys does.
  public func create(_ draft: PostDraft, idempotencyKey: String) async throws -> Post {
    try await script.call(
      "create", "\(draft.title), \(draft.body), \(draft.userId), key \(idempotencyKey)")
    return once(idempotencyKey) {
      Post(id: nextID, title: draft.title, body: draft.body, userId: draft.userId)
    }
  }

  /// The post as given: a fake's posts never change, and carry no version.
  public func latest(id: Int) async throws -> (post: Post, version: String?) {
    try await script.call("latest", "\(id)")
    return (try stored(id), nil)
  }

  public func update(id: Int, _ edit: PostEdit, idempotencyKey: String, ifMatch version: String?)
    async throws -> (post: Post, version: String?)
  {
    let fields =
      [edit.title, edit.body].compactMap { $0 } + (version.map { ["if-match \($0)"] } ?? [])
    try await script.call(
      "update", "\(id), \(fields.joined(separator: ", ")), key \(idempotencyKey)")
    return (edit.applied(to: try stored(id)), nil)
  }

  /// Nothing: the post is "deleted".
  public func delete(id: Int, idempotencyKey: String, ifMatch version: String?) async throws {
    try await script.call("delete", "\(id), key \(idempotencyKey)")
    _ = try stored(id)
  }

  private var nextID: Int { (items.map(\.id).max() ?? 0) + 1 }
}

extension Post: FakeItem {}

// Sample data in the real service's shape, nobody's real data.

extension Post {
  public static let preview = Post(
    id: 1, title: "His mother had always taught him", body: "not to ever think of himself…",
    userId: 1, tags: ["history", "american"], reactions: .init(likes: 192, dislikes: 25),
    views: 305)

  /// Five posts by the preview users.
  public static let previews: [Post] = (1...5).map { id in
    Post(
      id: id, title: "Post \(id)", body: "The text of post \(id).", userId: id, tags: [],
      reactions: .init(likes: id * 10, dislikes: id), views: id * 100)
  }
}
