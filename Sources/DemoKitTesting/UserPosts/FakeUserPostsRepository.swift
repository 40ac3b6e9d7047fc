import DemoKit
import Strata

/// The posts fake also answers by author.
public typealias FakeUserPostsRepository = FakeCollection<Post>

extension FakeCollection: UserPostsRepository where Item == Post {
  public func posts(byUser userId: Int, limit: Int, skip: Int) async throws -> Page<Post> {
    try await script.call("posts", "\(userId), \(limit), \(skip)")
    return slice(items.filter { $0.userId == userId }, limit: limit, skip: skip)
  }
}
