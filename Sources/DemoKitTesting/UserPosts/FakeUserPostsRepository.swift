import DemoKit
import Strata

/// Users' posts from memory; every call recorded by ``script`` (script a 404 for no such user).
public final class FakeUserPostsRepository: UserPostsRepository {
  public let script: FakeScript
  private let posts: [Post]

  /// A repository over `posts`, grouped by their `userId`.
  public init(posts: [Post] = Post.previews, script: FakeScript = FakeScript()) {
    self.posts = posts
    self.script = script
  }

  public func posts(byUser userId: Int, limit: Int, skip: Int) async throws -> Page<Post> {
    try await script.call("posts", "\(userId), \(limit), \(skip)")
    return slice(posts.filter { $0.userId == userId }, limit: limit, skip: skip)
  }
}
