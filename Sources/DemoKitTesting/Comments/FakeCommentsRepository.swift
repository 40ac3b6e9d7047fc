import DemoKit
import Strata

public typealias FakeCommentsRepository = FakeCollection<PostComment>

extension FakeCollection: CommentsRepository where Item == PostComment {
  public func comments(postId: Int) async throws -> Page<PostComment> {
    try await script.call("comments", "\(postId)")
    return .preview(items.filter { $0.postId == postId })
  }
}

extension PostComment: FakeItem {}

// Sample data in the real service's shape, nobody's real data.

extension PostComment {
  /// Three comments on post 1.
  public static let previews: [PostComment] = (1...3).map { id in
    PostComment(
      id: id, body: "Comment \(id)", postId: 1, likes: id,
      user: .init(id: id + 1, username: "user\(id)", fullName: "User \(id)"))
  }
}
