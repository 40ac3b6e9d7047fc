import DemoKit
import Foundation
import Strata
import StrataConcurrency

/// Comments from memory; every call recorded by ``script``.
public final class FakeCommentsRepository: CommentsRepository {
  /// Records calls, scripts failures, holds answers.
  public let script: FakeScript
  private let comments: [PostComment]

  /// A repository over `comments`.
  public init(comments: [PostComment] = PostComment.previews, script: FakeScript = FakeScript()) {
    self.comments = comments
    self.script = script
  }

  /// A slice of the items.
  public func list(limit: Int, skip: Int) async throws -> Page<PostComment> {
    try await script.call("list", "\(limit), \(skip)")
    return slice(comments, limit: limit, skip: skip)
  }

  /// The comments on `postId`.
  public func comments(postId: Int) async throws -> Page<PostComment> {
    try await script.call("comments", "\(postId)")
    return .preview(comments.filter { $0.postId == postId })
  }
}

// Sample data in the real service's shape, nobody's real data.

extension PostComment {
  /// Three comments on post 1.
  public static let previews: [PostComment] = (1...3).map { id in
    PostComment(
      id: id, body: "Comment \(id)", postId: 1, likes: id,
      user: .init(id: id + 1, username: "user\(id)", fullName: "User \(id)"))
  }
}
