import Strata

/// Comments: all of them, or a post's.
public protocol CommentsRepository: Sendable {
  /// A page of all comments.
  func list(limit: Int, skip: Int) async throws -> Page<PostComment>
  /// The comments on post `postId` (404 when there is no such post).
  func comments(postId: Int) async throws -> Page<PostComment>
}

// MARK: - Live implementation

public final class APICommentsRepository: CommentsRepository {
  private let network: any Networking

  public init(network: any Networking) { self.network = network }

  /// A page of all comments.
  public func list(limit: Int, skip: Int) async throws -> Page<PostComment> {
    try await network.send(Page.request(limit, skip)).value
  }

  /// The comments on post `postId`.
  public func comments(postId: Int) async throws -> Page<PostComment> {
    try await network.send(CommentRequests.forPost(postId)).value
  }
}

// MARK: - Requests

private enum CommentRequests {
  /// `GET /posts/{id}/comments`: every comment of the post, in one page.
  static func forPost(_ postId: Int) -> Request<Page<PostComment>> {
    Request(path: "posts/\(postId)/comments", query: ["limit": "0"])
  }
}
